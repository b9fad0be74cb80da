"""Accounts (optional): names and password hashes, log-in sessions, and the seats each account holds.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(20), nullable=False, unique=True),
        sa.Column("password", sa.String(200), nullable=False),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("expires", WHEN, nullable=False, index=True),
    )
    op.create_table(
        "account_seats",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("side", sa.String(5), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("at", WHEN, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("account_seats")
    op.drop_table("sessions")
    op.drop_table("accounts")
