"""Playing: bots, the terminal game and batch simulation."""
