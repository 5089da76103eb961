"""A Python 2 bot file in the style of the 2012 competition, for the compat tests.

Written for Python 2.7 and never edited for Python 3: every method relies on a Python 2
idiom (statements, list-returning builtins, mixed-type ordering, integer division...).
Each idiom checks its own Python 2 result and raises if it differs, so a game that ends
without error means every idiom ran with Python 2's semantics.
"""

import random
from player import Bot, Player
from util import Variable


def expect(value, wanted, what):
    if value != wanted:
        raise AssertionError("%s: got %r, Python 2 gives %r" % (what, value, wanted))


class Grudge(object):
    """An old-style ordering: __cmp__ only."""

    def __init__(self, amount):
        self.amount = amount

    def __cmp__(self, other):
        return cmp(self.amount, other.amount)


class Idioms(Bot):
    """Plays a cautious game; every decision goes through Python 2 idioms."""

    def onGameRevealed(self, players, spies):
        self.failures = {}
        for p in players:
            self.failures[p] = 0
        self.spies = spies
        print "%s sees %d players" % (self.name, len(players)),
        print
        # print >>sys.stderr style is rare; a tuple print is a Python 2 tuple
        expect(len(filter(lambda p: p != self, players)), len(players) - 1, "len(filter)")
        expect(len(map(str, players)), len(players), "len(map)")
        pairs = zip(range(len(players)), players)
        expect(len(pairs), len(players), "len(zip)")
        twice = [i for i, _ in pairs] + [i for i, _ in pairs]  # a zip iterated twice
        expect(len(twice), 2 * len(players), "zip iterated twice")
        expect(self.failures.keys()[0] in players, True, "dict.keys()[0]")
        expect(type(xrange(3)[1]), int, "xrange")
        expect(reduce(lambda a, b: a + b, [1, 2, 3]), 6, "reduce builtin")
        expect(7 / 2, 3, "int / int")
        expect(7.0 / 2, 3.5, "float / int")
        half = 9
        half /= 2
        expect(half, 4, "int /= int")
        expect(round(2.5), 3.0, "round half away from zero")
        expect(self.failures.has_key(players[0]), True, "has_key")
        expect(sorted([3, None, "a", (1,), [2], 1.5]), [None, 1.5, 3, [2], "a", (1,)],
               "sorted mixed types")
        expect((1, 2) > 5, True, "tuple > int")
        expect([0] > 10 ** 6, True, "list > int")
        expect(None < -10, True, "None < number")
        expect("a" > 3, True, "str > int")
        expect(max([1, "x", None]), "x", "max mixed types")
        expect(min([(0,), 2]), 2, "min mixed types")
        expect(cmp(2, 1), 1, "cmp builtin")
        expect(sorted([3, 1, 2], cmp=lambda a, b: cmp(b, a)), [3, 2, 1], "sorted(cmp=)")
        ordered = [Grudge(3), Grudge(1)]
        ordered.sort()
        expect([g.amount for g in ordered], [1, 3], "__cmp__ ordering")
        expect(Grudge(2) == Grudge(2), True, "__cmp__ equality")
        expect(1 < 2 < 3 > 2, True, "chained comparison")
        expect(len(random.sample(set(players), 2)), 2, "random.sample on a set")
        try:
            raise ValueError("py2 except syntax")
        except ValueError, e:
            expect(str(e), "py2 except syntax", "except X, e")
        expect(isinstance(u"x", basestring), True, "basestring")
        expect(long(3), 3, "long")
        expect(1 <> 2, True, "<> operator")
        expect(`5`, "5", "backticks")

    def onMissionComplete(self, sabotaged):
        if sabotaged:
            for p in self.game.team:
                self.failures[p] = self.failures[p] + sabotaged

    def select(self, players, count):
        # Players ordered by their failure count, then (Python 2) by the Player objects.
        ranked = sorted([(self.failures[p], p) for p in players if p != self])
        team = [self] + [p for _, p in ranked][:count - 1]
        return team

    def vote(self, team):
        if self.spy:
            return len([p for p in team if p in self.spies]) > 0
        if self.game.tries == 5:
            return True
        worst = max([(self.failures[p], p) for p in team])
        return worst < (1, None)  # a tuple compared with a mixed tuple

    def sabotage(self):
        return True


class Tallies(Bot):
    """Keeps dicts of lists and iterates them the Python 2 way."""

    def onGameRevealed(self, players, spies):
        self.votes = dict((p, []) for p in players)
        self.score = Variable()

    def onVoteComplete(self, votes):
        for p, v in zip(self.game.players, votes):
            self.votes[p].append(v)
        for p, history in self.votes.iteritems():
            expect(isinstance(history, list), True, "iteritems")
        total = sum(map(lambda h: len(h), self.votes.values()))
        expect(total % len(self.game.players), 0, "map over values()")

    def select(self, players, count):
        yes = self.votes.items()
        yes.sort(key=lambda (p, h): -sum(h))  # tuple parameters in a lambda
        return [p for p, _ in yes[:count]]

    def vote(self, team):
        return random.random() < 0.7 or self.game.tries >= 4

    def sabotage(self):
        return random.choice([True, False])


from py2_sibling_helper import least


class Sibling(Bot):
    """Uses a Python 2 helper module kept in the same folder."""

    def onGameRevealed(self, players, spies):
        self.seen = dict([(p, 0) for p in players])

    def onTeamSelected(self, leader, team):
        for p in team:
            self.seen[p] += 1

    def select(self, players, count):
        rest = [p for p in players if p != self]
        picked = [self]
        while len(picked) < count:
            p = least(dict([(q, self.seen[q]) for q in rest if q not in picked]))
            picked.append(p)
        return picked

    def vote(self, team):
        return True

    def sabotage(self):
        return False
