import Road
import SimClock
import Testing

/// The integration as it was written before its cruising steps were taken
/// in a loop of their own (`Trajectory.cruiseEnd`) and a braking curve's
/// root only when it may bind: every step in full. The trajectory must
/// give the same bits.
private func referenceSteps(_ profile: SpeedProfile, length: Double) -> (distances: [Double], speeds: [Double]) {
    let dt = Double(Trajectory.step.ms) / 1000
    var x = 0.0
    var v = 0.0
    var index = 0
    var stop = 0
    var distances = [0.0]
    var speeds = [0.0]
    let steps = profile.steps
    while x < length {
        if stop < profile.stops.count, x >= profile.stops[stop].at {
            let dwellSteps = (profile.stops[stop].dwell.ms + Trajectory.step.ms - 1) / Trajectory.step.ms
            stop += 1
            for _ in 0..<dwellSteps {
                distances.append(x)
                speeds.append(0)
            }
            v = 0
            continue
        }
        while index + 1 < steps.count, steps[index + 1].from <= x { index += 1 }
        var target = steps[index].speed
        var j = index + 1
        while j < steps.count, steps[j].from < length, steps[j].from - x < 1_000 {
            let gap = max(0, steps[j].from - x - v * dt)
            if steps[j].speed < v {
                target = min(target, (steps[j].speed * steps[j].speed + 2 * profile.decel * gap).squareRoot())
            }
            j += 1
        }
        target = min(target, (2 * profile.decel * max(0, length - x - v * dt)).squareRoot())
        let end = stop < profile.stops.count ? min(length, profile.stops[stop].at) : length
        if end < length { target = min(target, (2 * profile.decel * max(0, end - x - v * dt)).squareRoot()) }
        target = max(target, 1.0)
        let next = v < target ? min(target, v + profile.accel * dt) : max(target, v - profile.decel * dt)
        x = min(end, x + (v + next) / 2 * dt)
        v = x >= end ? 0 : next
        distances.append(x)
        speeds.append(v)
    }
    return (distances, speeds)
}

/// A random profile within the documented bounds: speed steps 1 m to 3 km
/// apart at 3.6 to 250 km/h (some repeated, some far below the last),
/// accelerations 0.1 to 20 m/s², and a few stops.
private func randomProfile(_ random: inout SplitMix64, length: Double) -> SpeedProfile {
    func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(random.int(in: 0...1_000_000)) / 1_000_000
    }
    var steps = [SpeedProfile.Step(from: 0, speed: uniform(1, 250 / 3.6))]
    while let last = steps.last, last.from < length {
        let from = last.from + (random.int(in: 0...3) == 0 ? uniform(1, 20) : uniform(20, 3_000))
        let speed = random.int(in: 0...4) == 0 ? last.speed : uniform(1, 250 / 3.6)
        steps.append(SpeedProfile.Step(from: from, speed: speed))
    }
    var stops: [SpeedProfile.Stop] = []
    var at = uniform(0, length / 2)
    while at < length, stops.count < 4 {
        stops.append(SpeedProfile.Stop(at: at, dwell: SimTime(ms: random.int(in: 0...90_000))))
        at += uniform(1, length / 2)
    }
    let accel = random.int(in: 0...3) == 0 ? uniform(0.1, 20) : uniform(1, 3)
    let decel = random.int(in: 0...3) == 0 ? uniform(0.1, 20) : uniform(1, 4)
    return SpeedProfile(steps: steps, accel: accel, decel: decel, stops: stops)
}

@Test func theTrajectoryIsTheFullStepIntegrationBitForBit() {
    var random = SplitMix64(seed: 20)
    for _ in 0..<300 {
        let length = Double(random.int(in: 1...60_000))
        let profile = randomProfile(&random, length: length)
        let trajectory = Trajectory(profile: profile, length: length, start: SimTime(ms: 5_000))
        let reference = referenceSteps(profile, length: length)
        #expect(trajectory.distances.map(\.bitPattern) == reference.distances.map(\.bitPattern), "\(profile)")
        #expect(trajectory.speeds.map(\.bitPattern) == reference.speeds.map(\.bitPattern), "\(profile)")
        let steps = Int64(reference.distances.count - 1)
        let arrival = SimTime(ms: 5_000 + steps * Trajectory.step.ms)
        #expect(trajectory.arrival == arrival)
        // The validation's integration stops at the limit: one step short of the arrival is too late.
        #expect(
            Trajectory.arrival(profile: profile, length: length, start: SimTime(ms: 5_000), limit: arrival) == arrival)
        #expect(
            Trajectory.arrival(
                profile: profile, length: length, start: SimTime(ms: 5_000), limit: arrival - Trajectory.step) == nil)
    }
}
