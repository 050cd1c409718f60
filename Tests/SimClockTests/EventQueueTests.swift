import SimClock
