"""Live tables: a table in play and its moves so far, so that it survives a restart.

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
    op.create_table(
        "live_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(24), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("notes", sa.JSON, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=True),
    )
    op.create_table(
        "live_actions",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("live_tables.id"),
                  primary_key=True),
        sa.Column("move", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.BigInteger, nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("live_actions")
    op.drop_table("live_tables")
