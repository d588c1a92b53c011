"""The ``belot`` subcommands: each module here has ``register(subparsers)`` (found automatically)."""
