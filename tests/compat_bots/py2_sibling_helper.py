"""A Python 2 module kept beside the bot files (imported by py2repo's bot)."""


def least(values):
    return sorted(values.items(), key=lambda (k, v): v)[0][0]
