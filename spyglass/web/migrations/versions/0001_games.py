"""The first schema: games (records) and their players.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False, index=True),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(24), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=True),
        sa.Column("finished", sa.Float, nullable=False, index=True),
        sa.Column("outcome", sa.String(200), nullable=False),
        sa.Column("humans", sa.Integer, nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False,
                  index=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("name", sa.String(200), nullable=False, index=True),
        sa.Column("role", sa.String(40), nullable=False),
        sa.Column("reward", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("players")
    op.drop_table("games")
