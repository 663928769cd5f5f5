"""The phases of a game turn (000 "SEQUENCE OF PLAY").

Besides the rulebook's Initiative, Movement and Attack phases: choosing turn
position (000 "CHOOSING TURN POSITION"), assigning fighter direction
(000 "FIGHTER DIRECTION"), position-adjusting abilities after movement
(000 "MOVEMENT AND SPECIAL ABILITIES"), and the end of the battle.
"""

INITIATIVE, POSITION, DIRECTION, MOVEMENT, REPOSITION, ATTACK, OVER = (
    "initiative",
    "position",
    "direction",
    "movement",
    "reposition",
    "attack",
    "over",
)
