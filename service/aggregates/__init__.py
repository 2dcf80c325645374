"""One package per game: its rules (a pure decider), its events, its card data."""
