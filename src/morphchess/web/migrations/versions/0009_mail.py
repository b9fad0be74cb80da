"""Mail settings: an account's e-mail address and whether it is mailed when it is its correspondence move.

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


def downgrade() -> None:
    op.drop_table("mail_settings")
