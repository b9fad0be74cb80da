"""Mail settings: an account's e-mail address and whether it is mailed when it is its correspondence move;
the ply each correspondence game's side to move was last reminded at.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_settings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("address", sa.String(254)),
        sa.Column("moves", sa.Boolean, nullable=False),
    )
    op.create_table(
        "reminders",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reminders")
    op.drop_table("mail_settings")
