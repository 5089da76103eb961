"""A stored game keeps the id of the live table it was played at, so the table's link
still leads to the game (its replay) after a restart or once the table is forgotten.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("table_id", sa.String(32), nullable=True))
        batch.create_index("ix_games_table_id", ["table_id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_table_id")
        batch.drop_column("table_id")
