"""Tournaments (arenas and Swiss): the tournaments, their players with their scores, and their games.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(12), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("variant", sa.String(200), nullable=False),
        sa.Column("tc", sa.String(16), nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("starts", WHEN, nullable=False),
        sa.Column("ends", WHEN, nullable=False, index=True),
        sa.Column("creator_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"), index=True),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(12), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
                  index=True),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("balance", sa.Integer, nullable=False),
        sa.Column("last_opponent", sa.Integer),
        sa.Column("sheet", sa.String(60), nullable=False),
        sa.Column("free_since", WHEN, nullable=False),
        sa.Column("joined", WHEN, nullable=False),
    )
    op.create_table(
        "tournament_games",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("tournament_id", sa.String(12), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("white_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL")),
        sa.Column("black_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL")),
        sa.Column("ended", sa.Boolean, nullable=False),
        sa.Column("white_points", sa.Integer),
        sa.Column("black_points", sa.Integer),
        sa.Column("created", WHEN, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_players")
    op.drop_table("tournaments")
