"""A 2012 bot file importing another file of the same folder."""

from basics import Layer2


class Layer4(Layer2):
    def onMissionAttempt(self, mission, tries, leader):
        self.calls.append("Layer4.onMissionAttempt")
