def suspicion_order(counts):
    """Players from least to most suspected; ties in Player order (Python 2 style)."""
    pairs = [(c, p) for p, c in counts.iteritems()]
    pairs.sort()
    return map(lambda pair: pair[1], pairs)
