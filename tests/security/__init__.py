"""What a stranger on a public server must not be able to do (issue 23)."""
