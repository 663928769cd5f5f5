/* Hex maths of the battle maps, shared by the play page (templates/battles/_play_moves_script.html)
   and the battle report (templates/battles/report.html); the server draws the grid with the same
   sums (battles/report.py: hex_center, hex_points; rules/angels20/hexmap.py: offset_to_axial).

   Flat-topped hexes in "odd-q" offset coordinates (column, row), odd columns shifted half a hex
   down, converted to axial (q, r) for the pixel sums (Red Blob Games, "Hexagonal Grids"). The
   drawing has a margin of one hex size, so hex (0, 0) is centred at (size, size).

   Usage: const hex = AngelsHex.grid(18); hex.center(col, row) -> [x, y];
   hex.corners(col, row) -> "x,y x,y ..." (an SVG polygon's points).

   Aircraft sharing a hex: AngelsHex.stack(["3,7", "5,9", "3,7"]) -> [{k: 0, n: 2}, {k: 0, n: 1},
   {k: 1, n: 2}], each aircraft's place k among the n in its hex. The maps draw the k-th marker
   shifted STACK_SPREAD * (k - (n - 1) / 2) px sideways and its label (k - (n - 1)) * STACK_LINE em
   above the usual place, so two aircraft in one hex show two markers and two readable labels
   (the play page's server-drawn markers use the same numbers: battles/board_drawing.py). */
(function (root) {
  "use strict";
  const SQRT3 = Math.sqrt(3);

  function offsetToAxial(col, row) { return [col, row - (col - (col & 1)) / 2]; }
  function axialToOffset(q, r) { return [q, r + (q - (q & 1)) / 2]; }

  function grid(size) {
    function center(col, row) {
      const [q, r] = offsetToAxial(col, row);
      return [size * 1.5 * q + size, size * SQRT3 * (r + q / 2) + size];
    }
    function corners(col, row) {
      const [x, y] = center(col, row);
      const points = [];
      for (let k = 0; k < 6; k++) {
        const a = Math.PI / 3 * k;
        points.push((x + size * Math.cos(a)).toFixed(1) + "," + (y + size * Math.sin(a)).toFixed(1));
      }
      return points.join(" ");
    }
    return {size, center, corners};
  }

  const STACK_SPREAD = 7, STACK_LINE = 1.2;
  function stack(keys) {
    const count = {}, seen = {};
    for (const key of keys) count[key] = (count[key] || 0) + 1;
    return keys.map(key => {
      seen[key] = key in seen ? seen[key] + 1 : 0;
      return {k: seen[key], n: count[key]};
    });
  }
  function stackShift(place) { return STACK_SPREAD * (place.k - (place.n - 1) / 2); }
  function stackLift(place) { return (place.k - (place.n - 1)) * STACK_LINE; }

  root.AngelsHex = {grid, offsetToAxial, axialToOffset, stack, stackShift, stackLift, STACK_SPREAD, STACK_LINE};
})(window);
