"""Games of the shared model (:mod:`analyzer.importers.model`) written in the formats other tools read: mjai JSON
lines (:mod:`.mjai`) and tenhou.net/6 JSON (:mod:`.tenhou6`)."""
