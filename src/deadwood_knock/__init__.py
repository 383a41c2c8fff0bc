"""Deadwood Knock and Knock Rummy: rules engine, bots, server and clients."""

__version__ = "0.1.0"
