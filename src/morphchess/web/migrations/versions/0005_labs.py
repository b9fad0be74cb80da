"""The Lab's runs, so that any server finds them (and a run whose server died reads as ended).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "labs",
        sa.Column("id", sa.String(12), primary_key=True),
        sa.Column("variant", sa.String(200), nullable=False),
        sa.Column("player", sa.String(20), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("state", sa.String(8), nullable=False, index=True),
        sa.Column("error", sa.Text),
        sa.Column("summary", sa.Text),
        sa.Column("report", sa.Text),
        sa.Column("lease", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("labs")
