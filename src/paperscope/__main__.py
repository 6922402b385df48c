"""`python -m paperscope` runs the CLI."""
from .cli import main

main()
