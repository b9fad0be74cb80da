"""Reviews of finished games: the engine's evaluation of every position, one review a game.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("evals", sa.Text, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("lease", WHEN, nullable=False),
        sa.Column("created", WHEN, nullable=False),
        sa.Column("updated", WHEN, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
