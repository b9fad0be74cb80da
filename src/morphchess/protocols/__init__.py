"""The engine protocols: UCI and XBoard front ends over :mod:`morphchess.engine` (``docs/protocols.md``)."""
