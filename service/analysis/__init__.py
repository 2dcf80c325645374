"""Analysis from one seat's own information: information-set Monte Carlo tree
search over determinizations (ismcts.py), the bot built on it (bot.py). Pure
code: no I/O; it runs the kernel's ``Machine`` on sampled states."""
