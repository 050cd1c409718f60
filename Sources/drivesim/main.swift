import SimRunner
