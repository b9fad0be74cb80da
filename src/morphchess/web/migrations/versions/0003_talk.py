"""Talk in a game (players' and spectators' messages), closing it to spectators, rematch offers.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "talk",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("side", sa.String(5)),
        sa.Column("role", sa.String(10), nullable=False),
        sa.Column("name", sa.String(60)),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("client", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("talk_closed", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("rematch_offer", sa.String(5)))
        batch.add_column(sa.Column("rematch", sa.String(16)))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch")
        batch.drop_column("rematch_offer")
        batch.drop_column("talk_closed")
    op.drop_table("talk")
