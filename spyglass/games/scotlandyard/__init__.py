"""Scotland Yard (Whitehouse 2014, §4.2.12; Ravensburger 1983): Mr X against the detectives
on the published London board."""
