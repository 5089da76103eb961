"""Live tables keep what is not a seat or a move: the hash of the creator's cancel token,
the creating client (for its per-client limits) and why the game will not be rated.

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
    with op.batch_alter_table("live_tables") as batch:
        batch.add_column(sa.Column("extra", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("live_tables") as batch:
        batch.drop_column("extra")
