"""Games, their moves, and pasted definitions stored once by hash.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

WHEN = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "definitions",
        sa.Column("key", sa.String(24), primary_key=True),
        sa.Column("sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("author", sa.String(200)),
        sa.Column("description", sa.String(300), nullable=False),
        sa.Column("files", sa.Integer, nullable=False),
        sa.Column("ranks", sa.Integer, nullable=False),
        sa.Column("created", WHEN, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("setup", sa.String(40), nullable=False),
        sa.Column("start_fen", sa.Text),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("status", sa.String(8), nullable=False, index=True),
        *[sa.Column(side, sa.String(8), nullable=False) for side in ("white", "black")],
        *[sa.Column(f"{side}_name", sa.String(60)) for side in ("white", "black")],
        *[sa.Column(f"{side}_token", sa.String(64)) for side in ("white", "black")],
        *[sa.Column(f"{side}_joined", sa.Boolean, nullable=False) for side in ("white", "black")],
        sa.Column("level", sa.Integer, nullable=False),
        sa.Column("tc", sa.String(16)),
        *[sa.Column(f"{side}_ms", sa.Integer) for side in ("white", "black")],
        sa.Column("clock_at", WHEN),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("result", sa.String(8)),
        sa.Column("termination", sa.String(40)),
        sa.Column("draw_offer", sa.String(5)),
        sa.Column("takeback_offer", sa.String(5)),
        sa.Column("engine_job", sa.String(32)),
        sa.Column("engine_fen", sa.Text),
        sa.Column("engine_lease", WHEN),
        sa.Column("engine_stop", sa.Boolean, nullable=False),
        sa.Column("engine_info", sa.Text),
        sa.Column("engine_seq", sa.Integer, nullable=False),
        sa.Column("creator", sa.String(16), nullable=False),
        sa.Column("created", WHEN, nullable=False, index=True),
        sa.Column("updated", WHEN, nullable=False),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("uci", sa.String(24), nullable=False),
        sa.Column("san", sa.String(40), nullable=False),
        sa.Column("gc", sa.String(60), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.Column("clock_ms", sa.Integer),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("games")
    op.drop_table("definitions")
