/// `drivesim` with no arguments: a built-in demo drive, its timeline printed.
enum DemoCommand {
    /// A short drive in which every kind of collision happens once: a line
    /// waits for a short stretch, another cuts a long one, an urgent line cuts
    /// at once, and Dad barges in once the ears reopen.
    static let scenario = """
        {
          "drivesim": 1,
          "name": "demo: a right turn while Pippa reads the weather",
          "description": "Pippa reads the weather in three stretches while the turn onto Teheran-ro comes up; Dad asks about a petrol station once the ears reopen.",
          "guidance": [
            { "id": "far", "at": 3.0, "duration": 2.4, "maneuver": "m1", "language": "en",
              "text": "In 800 m, turn right onto Teheran-ro" },
            { "id": "near", "at": 14.0, "duration": 2.0, "maneuver": "m1", "language": "en",
              "text": "In 200 m, turn right" },
            { "id": "now", "at": 21.0, "duration": 1.2, "urgent": true, "maneuver": "m1", "language": "en",
              "text": "Turn right now" }
          ],
          "replies": [
            { "id": "weather", "at": 1.0, "stretches": [
              { "id": "w1", "duration": 3.5, "language": "en", "text": "Tomorrow in Seoul will be sunny," },
              { "id": "w2", "duration": 4.0, "ready": 2.5, "language": "en", "text": "with a high of 24 degrees and light wind," },
              { "id": "w3", "duration": 7.0, "ready": 4.0, "language": "en", "text": "and in the evening a chance of showers, so you may want to take an umbrella." }
            ] }
          ],
          "dad": [
            { "id": "ask", "at": 24.0, "duration": 1.5, "language": "ko", "text": "근처에 주유소 있어?",
              "reply": { "id": "answer", "after": 0.6, "stretches": [
                { "id": "a1", "duration": 3.0, "language": "ko", "text": "네, 500미터 앞 오른쪽에 있어요." } ] } }
          ],
          "expect": [
            { "at": 3.0, "event": "guidance.waiting", "line": "far", "rule": "short-wait", "stretch": "w1" },
            { "at": 14.0, "event": "talk.stretch.cut", "stretch": "w3", "rule": "long-cut", "by": "near", "playedMs": 3100 },
            { "at": 21.0, "event": "talk.stretch.cut", "stretch": "w3", "rule": "urgent-cut", "by": "now", "playedMs": 5000 },
            { "at": 24.0, "event": "talk.reply.abandoned", "reply": "weather", "rule": "barge-in" },
            { "at": 25.5, "event": "dad.ended", "utterance": "ask", "heardMs": 1500, "lostMs": 0 },
            { "at": 26.1, "event": "talk.reply.began", "reply": "answer" }
          ]
        }
        """

    static func run(console: inout Console) -> Int32 {
        let scenario: Scenario
        do {
            scenario = try ScenarioDecoder.decode(Array(Self.scenario.utf8), file: "<demo>")
        } catch {
            console.err("Error: the built-in demo is invalid: \(error)\n")
            return 2
        }
        let verdict = Verdict(scenario)
        console.out(verdict.simulation.timeline.text)
        if !verdict.passed { console.err(verdict.report) }
        return verdict.passed ? 0 : 1
    }
}
