"""What a rulebook does to the game, worked out from its compiled form: the exact long-run
landing probabilities (markov.py, by running the rules on a stand-in game: probe.py) and the
board drawn as a board (board.py). numpy, scipy and matplotlib come with the `analysis` extra."""
