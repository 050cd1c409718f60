import Fuzzing
import Review
import ScenarioFormat
import SimRunner

/// `drivesim` with no arguments: a built-in demo drive, its timeline printed.
enum DemoCommand {
    /// A short drive through Gangnam: the road section generates the fixes,
    /// the reports and the guidance lines (far, near and now for two turns
    /// and the arrival) while Pippa reads the weather in long stretches, so
    /// lines wait for a short stretch, cut long ones and cut at once when
    /// urgent; Dad asks about a petrol station and a guidance line closes the
    /// ears on part of his question.
    static let scenario = """
        {
          "drivesim": 1,
          "name": "demo: a short drive in Gangnam while Pippa reads the weather",
          "description": "A 1.3 km drive at 50 km/h with two turns and generated fixes; Pippa reads the weather in long stretches and Dad asks about a petrol station.",
          "replies": [
            {
              "id": "weather",
              "at": 2.0,
              "stretches": [
                {
                  "id": "w1",
                  "duration": 9.0,
                  "language": "en",
                  "text": "Tomorrow in Seoul will be sunny, with a high of 24 degrees."
                },
                {
                  "id": "w2",
                  "duration": 12.0,
                  "ready": 3.0,
                  "language": "en",
                  "text": "Light wind from the west, and in the evening a chance of showers."
                },
                {
                  "id": "w3",
                  "duration": 14.0,
                  "ready": 6.0,
                  "language": "en",
                  "text": "The weekend looks dry, so it is a good time for a trip to the coast."
                }
              ]
            }
          ],
          "dad": [
            {
              "id": "ask",
              "at": 66.0,
              "duration": 1.8,
              "language": "en",
              "text": "Is there a petrol station nearby?",
              "reply": {
                "id": "answer",
                "after": 0.6,
                "stretches": [
                  {
                    "id": "a1",
                    "duration": 3.5,
                    "language": "en",
                    "text": "Yes, one is 500 metres ahead on the right."
                  }
                ]
              }
            }
          ],
          "road": {
            "language": "en",
            "route": {
              "points": [
                {
                  "lat": 37.4979,
                  "lon": 127.0276
                },
                {
                  "lat": 37.4979,
                  "lon": 127.034968
                },
                {
                  "lat": 37.4943027,
                  "lon": 127.034968
                },
                {
                  "lat": 37.4943027,
                  "lon": 127.0383686
                }
              ],
              "maneuvers": [
                {
                  "id": "m1",
                  "lat": 37.4979,
                  "lon": 127.034968,
                  "turn": "right",
                  "street": "Gangnam-daero"
                },
                {
                  "id": "m2",
                  "lat": 37.4943027,
                  "lon": 127.034968,
                  "turn": "left",
                  "street": "Teheran-ro"
                },
                {
                  "id": "m3",
                  "lat": 37.4943027,
                  "lon": 127.0383686,
                  "turn": "arrive"
                }
              ]
            },
            "drive": {
              "speeds": [
                {
                  "from": 0,
                  "kmh": 50
                }
              ]
            },
            "fixes": {
              "seed": 1
            }
          },
          "expect": [
            {
              "event": "guidance.waiting",
              "line": "m1.far",
              "rule": "short-wait",
              "stretch": "w1"
            },
            {
              "event": "talk.stretch.cut",
              "stretch": "w3",
              "rule": "long-cut",
              "by": "m1.near"
            },
            {
              "event": "talk.stretch.cut",
              "stretch": "w3",
              "rule": "urgent-cut",
              "by": "m1.now"
            },
            {
              "at": 66.0,
              "event": "talk.reply.abandoned",
              "reply": "weather",
              "rule": "barge-in"
            },
            {
              "event": "talk.reply.began",
              "reply": "answer",
              "at": 68.4
            },
            {
              "event": "road.turn.passed",
              "count": 3
            },
            {
              "event": "road.turn.unannounced",
              "count": 0
            }
          ]
        }
        """

    static func run(console: inout Console) throws(DrivesimError) -> Int32 {
        let scenario: Scenario
        do {
            scenario = try ScenarioDecoder.decode(Array(Self.scenario.utf8), file: "<demo>")
        } catch {
            throw .invalidScenario(error)
        }
        let verdict = Verdict(scenario, fault: nil)
        console.out(verdict.simulation.timeline.story)
        if !verdict.passed { console.err(verdict.report) }
        return verdict.passed ? 0 : 1
    }
}
