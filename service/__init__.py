"""privateer: the application (commands, queries, randomness, seats, projections, HTTP)."""
