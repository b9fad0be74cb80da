"""Rate limits count writes in ``hits``; move texts and setup names have no length limit on either database.

SQLite never enforced the old lengths (moves.uci 24, san 40, gc 60, games.setup 40) and PostgreSQL did,
so a long multi-leg move was stored on one and refused with an error on the other.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        for name in ("uci", "san", "gc"):
            batch.alter_column(name, type_=sa.Text, existing_nullable=False)
    with op.batch_alter_table("games") as batch:
        batch.alter_column("setup", type_=sa.Text, existing_nullable=False)
    op.create_table(
        "hits",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("client", sa.String(16), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("hits_client_action", "hits", ["client", "action", "at"])


def downgrade() -> None:
    op.drop_table("hits")
    with op.batch_alter_table("games") as batch:
        batch.alter_column("setup", type_=sa.String(40), existing_nullable=False)
    with op.batch_alter_table("moves") as batch:
        for name, size in (("uci", 24), ("san", 40), ("gc", 60)):
            batch.alter_column(name, type_=sa.String(size), existing_nullable=False)
