"""Clocks in 64-bit integers: 25 to 30 days per move (2.16e9 to 2.59e9 ms) overflow PostgreSQL's
``integer`` (SQLite's integers are 64-bit already).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_CLOCKS = (("games", "white_ms"), ("games", "black_ms"), ("moves", "clock_ms"))


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    for table, column in _CLOCKS:
        op.alter_column(table, column, type_=sa.BigInteger, existing_type=sa.Integer)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    for table, column in _CLOCKS:
        op.alter_column(table, column, type_=sa.Integer, existing_type=sa.BigInteger)
