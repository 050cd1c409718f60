import Foundation
import Road
import SimClock
import Testing

@testable import Guidance

/// Maneuvers of every kind, with and without the words they carry, named
/// in the language they are spoken in.
enum Examples {
    struct Variant: Sendable {
        let label: String
        let maneuver: @Sendable (Language) -> Maneuver
    }

    static func street(_ language: Language) -> String { language == .en ? "Gangnam-daero" : "강남대로" }
    static func toward(_ language: Language) -> String { language == .en ? "Seoul Station" : "서울역" }

    /// Every kind of maneuver, bare and with its words.
    static let variants: [Variant] = Turn.allCases.flatMap { turn -> [Variant] in
        func v(_ label: String, _ make: @escaping @Sendable (Language) -> Maneuver) -> Variant {
            Variant(label: label, maneuver: make)
        }
        switch turn {
        case .roundabout:
            return [
                v("`roundabout`", { _ in Maneuver(id: "m", turn: turn) }),
                v("`roundabout`, `exit` 2", { _ in Maneuver(id: "m", turn: turn, details: ManeuverDetails(exit: 2)) }),
                v(
                    "`roundabout`, `exit` 1, `toward`",
                    { l in Maneuver(id: "m", turn: turn, details: ManeuverDetails(toward: toward(l), exit: 1)) }),
                v(
                    "`roundabout`, `exit` 3, `street`",
                    { l in Maneuver(id: "m", turn: turn, street: street(l), details: ManeuverDetails(exit: 3)) }),
                v(
                    "`roundabout`, `exit` 3, `name`",
                    { l in
                        Maneuver(
                            id: "m", turn: turn,
                            details: ManeuverDetails(exit: 3, exitName: l == .en ? "Place de l'Étoile" : "샤를드골 광장"))
                    }),
                v(
                    "`roundabout`, `name` (a rotary)",
                    { l in
                        Maneuver(
                            id: "m", turn: turn,
                            details: ManeuverDetails(exitName: l == .en ? "Gwanghwamun Rotary" : "광화문 로터리"))
                    }),
            ]
        case .offRamp:
            return [
                v("`off-ramp`", { _ in Maneuver(id: "m", turn: turn) }),
                v(
                    "`off-ramp`, `ref`",
                    { _ in Maneuver(id: "m", turn: turn, details: ManeuverDetails(exitNumber: "12A")) }),
                v(
                    "`off-ramp`, `name`",
                    { l in
                        Maneuver(
                            id: "m", turn: turn, details: ManeuverDetails(exitName: l == .en ? "Pangyo IC" : "판교IC"))
                    }),
                v(
                    "`off-ramp`, `ref`, `name`, `toward`",
                    { l in
                        Maneuver(
                            id: "m", turn: turn,
                            details: ManeuverDetails(
                                toward: l == .en ? "Seongnam" : "성남", exitNumber: "12",
                                exitName: l == .en ? "Pangyo IC" : "판교IC"))
                    }),
                v(
                    "`off-ramp`, `ref`, `street`",
                    { l in Maneuver(id: "m", turn: turn, street: street(l), details: ManeuverDetails(exitNumber: "3")) }
                ),
                v(
                    "`off-ramp`, `side` left",
                    { _ in Maneuver(id: "m", turn: turn, details: ManeuverDetails(side: .left)) }),
                v(
                    "`off-ramp`, `ref`, `name`, `side` left, `toward`",
                    { l in
                        Maneuver(
                            id: "m", turn: turn,
                            details: ManeuverDetails(
                                toward: toward(l), exitNumber: "12", exitName: l == .en ? "Pangyo IC" : "판교IC",
                                side: .left))
                    }),
            ]
        case .onRamp:
            return [
                v("`on-ramp`", { _ in Maneuver(id: "m", turn: turn) }),
                v(
                    "`on-ramp`, `street`, `toward`",
                    { l in Maneuver(id: "m", turn: turn, street: street(l), details: ManeuverDetails(toward: toward(l)))
                    }),
                v(
                    "`on-ramp`, `name`, `toward`",
                    { l in Maneuver(id: "m", turn: turn, details: ManeuverDetails(toward: toward(l), exitName: "A 10"))
                    }),
                v(
                    "`on-ramp`, `side` left",
                    { _ in Maneuver(id: "m", turn: turn, details: ManeuverDetails(side: .left)) }),
            ]
        case .arrive:
            return [v("`arrive`", { _ in Maneuver(id: "m", turn: turn) })]
                + ArrivalSide.allCases.map { side in
                    v(
                        "`arrive`, `side` \(side.rawValue)",
                        { _ in Maneuver(id: "m", turn: turn, details: ManeuverDetails(side: side)) })
                }
        case .ferry:
            return [
                v("`ferry`", { _ in Maneuver(id: "m", turn: turn) }),
                v(
                    "`ferry`, `street`",
                    { l in Maneuver(id: "m", turn: turn, street: l == .en ? "Puttgarden - Rødby" : "목포-제주") }),
            ]
        case .waypoint:
            return [
                v(
                    "`waypoint` (the first)",
                    { _ in Maneuver(id: "m", turn: turn, details: ManeuverDetails(waypoint: 1)) }),
                v(
                    "`waypoint` (the second), `uTurn`",
                    { _ in Maneuver(id: "m", turn: turn, details: ManeuverDetails(uTurn: true, waypoint: 2)) }),
            ]
        default:
            return [
                v("`\(turn.rawValue)`", { _ in Maneuver(id: "m", turn: turn) }),
                v(
                    "`\(turn.rawValue)`, `street`, `toward`",
                    { l in Maneuver(id: "m", turn: turn, street: street(l), details: ManeuverDetails(toward: toward(l)))
                    }),
            ]
        }
    }

    /// Pairs announced together ("…, then …").
    static let pairs: [(String, @Sendable (Language) -> (Maneuver, Maneuver))] = [
        (
            "`right` `street`, then `left` `street`",
            { l in
                (
                    Maneuver(id: "a", turn: .right, street: street(l)),
                    Maneuver(id: "b", turn: .left, street: l == .en ? "Teheran-ro" : "테헤란로")
                )
            }
        ),
        (
            "`left`, then `roundabout` `exit` 2",
            { _ in
                (
                    Maneuver(id: "a", turn: .left),
                    Maneuver(id: "b", turn: .roundabout, details: ManeuverDetails(exit: 2))
                )
            }
        ),
        (
            "`roundabout` `exit` 1, then `right`",
            { _ in
                (
                    Maneuver(id: "a", turn: .roundabout, details: ManeuverDetails(exit: 1)),
                    Maneuver(id: "b", turn: .right)
                )
            }
        ),
        (
            "`off-ramp` `ref`, then `fork-left`",
            { _ in
                (
                    Maneuver(id: "a", turn: .offRamp, details: ManeuverDetails(exitNumber: "5")),
                    Maneuver(id: "b", turn: .forkLeft)
                )
            }
        ),
        ("`right`, then `arrive`", { _ in (Maneuver(id: "a", turn: .right), Maneuver(id: "b", turn: .arrive)) }),
        (
            "`left`, then `arrive` `side` right",
            { _ in
                (
                    Maneuver(id: "a", turn: .left),
                    Maneuver(id: "b", turn: .arrive, details: ManeuverDetails(side: .right))
                )
            }
        ),
        (
            "`right`, then `waypoint`",
            { _ in
                (
                    Maneuver(id: "a", turn: .right),
                    Maneuver(id: "b", turn: .waypoint, details: ManeuverDetails(waypoint: 1))
                )
            }
        ),
        (
            "`left`, then `waypoint` `uTurn`",
            { _ in
                (
                    Maneuver(id: "a", turn: .left),
                    Maneuver(id: "b", turn: .waypoint, details: ManeuverDetails(uTurn: true, waypoint: 1))
                )
            }
        ),
    ]

    /// Every distance a line can say.
    static let distances = SpokenDistance.presets
}

/// Whether `line` is one full Korean sentence in the polite style.
func isPoliteKorean(_ line: String) -> Bool {
    guard line.hasSuffix(".") else { return false }
    let body = line.dropLast()
    return body.hasSuffix("요") || body.hasSuffix("니다")
}

/// Whether `line` is one English sentence: a capital first, a period last.
func isEnglishSentence(_ line: String) -> Bool {
    guard let first = line.first, first.isUppercase, line.hasSuffix(".") else { return false }
    return !line.contains("  ") && !line.contains(" ,") && !line.contains(",,") && !line.contains(", .")
}

@Suite struct PhrasebookTests {
    @Test func linesArePhrasedInTheChosenLanguage() {
        let right = Maneuver(id: "m1", turn: .right, street: "Gangnam-daero")
        #expect(
            Phrasebook.line(.near, right, distance: 300, then: nil, language: .en)
                == "In 300 meters, turn right onto Gangnam-daero.")
        #expect(
            Phrasebook.line(.now, right, distance: nil, then: nil, language: .en)
                == "Now turn right onto Gangnam-daero.")
        let 우회전 = Maneuver(id: "m1", turn: .right, street: "강남대로")
        #expect(Phrasebook.line(.near, 우회전, distance: 300, then: nil, language: .ko) == "300미터 앞에서 강남대로로 우회전하세요.")
        #expect(Phrasebook.line(.now, 우회전, distance: nil, then: nil, language: .ko) == "지금 강남대로로 우회전하세요.")
        let uTurn = Maneuver(id: "m1", turn: .uTurn)
        #expect(Phrasebook.line(.far, uTurn, distance: 500, then: nil, language: .ko) == "500미터 앞에서 유턴하세요.")
        #expect(
            Phrasebook.line(.far, uTurn, distance: 1_500, then: nil, language: .en)
                == "In 1.5 kilometers, make a U-turn.")
    }

    @Test func arrivalSaysWhereTheDestinationIs() {
        let arrive = Maneuver(id: "m", turn: .arrive)
        #expect(
            Phrasebook.line(.now, arrive, distance: nil, then: nil, language: .en)
                == "You have arrived at your destination.")
        #expect(Phrasebook.line(.now, arrive, distance: nil, then: nil, language: .ko) == "목적지에 도착했습니다.")
        let right = Maneuver(id: "m", turn: .arrive, details: ManeuverDetails(side: .right))
        #expect(
            Phrasebook.line(.now, right, distance: nil, then: nil, language: .en) == "Your destination is on the right."
        )
        #expect(Phrasebook.line(.now, right, distance: nil, then: nil, language: .ko) == "목적지가 오른쪽에 있습니다.")
        #expect(
            Phrasebook.line(.near, right, distance: 200, then: nil, language: .en)
                == "In 200 meters, your destination will be on the right.")
        #expect(Phrasebook.line(.near, right, distance: 200, then: nil, language: .ko) == "200미터 앞 오른쪽에 목적지가 있습니다.")
    }

    @Test func roundaboutsAndRampsNameTheirExit() {
        let roundabout = Maneuver(id: "m", turn: .roundabout, details: ManeuverDetails(exit: 2))
        #expect(
            Phrasebook.line(.now, roundabout, distance: nil, then: nil, language: .en)
                == "At the roundabout, take the second exit.")
        #expect(Phrasebook.line(.now, roundabout, distance: nil, then: nil, language: .ko) == "회전교차로에서 두 번째 출구로 나가세요.")
        #expect(
            Phrasebook.line(.far, roundabout, distance: 300, then: nil, language: .ko)
                == "300미터 앞 회전교차로에서 두 번째 출구로 나가세요.")
        let exit = Maneuver(id: "m", turn: .offRamp, details: ManeuverDetails(toward: "수원", exitNumber: "12"))
        #expect(
            Phrasebook.line(.near, exit, distance: 500, then: nil, language: .ko) == "500미터 앞에서 수원 방면 12번 출구로 나가세요.")
        let exitEn = Maneuver(id: "m", turn: .offRamp, details: ManeuverDetails(toward: "Suwon", exitNumber: "12"))
        #expect(
            Phrasebook.line(.near, exitEn, distance: 500, then: nil, language: .en)
                == "In 500 meters, take exit 12 toward Suwon.")
    }

    @Test func aSideAndTheSignsArePhrasedApart() {
        let fork = Maneuver(id: "m", turn: .forkLeft, details: ManeuverDetails(toward: "수원"))
        #expect(
            Phrasebook.line(.near, fork, distance: 300, then: nil, language: .ko)
                == "300미터 앞 갈림길에서 왼쪽 방향, 수원 방면으로 진행하세요.")
        let bare = Maneuver(id: "m", turn: .forkRight)
        #expect(Phrasebook.line(.now, bare, distance: nil, then: nil, language: .ko) == "갈림길에서 오른쪽 방향으로 진행하세요.")
        let slight = Maneuver(id: "m", turn: .slightRight, street: "강변북로")
        #expect(Phrasebook.line(.now, slight, distance: nil, then: nil, language: .ko) == "지금 오른쪽 방향, 강변북로로 진행하세요.")
        let keep = Maneuver(id: "m", turn: .keepLeft, street: "경부고속도로")
        #expect(
            Phrasebook.line(.far, keep, distance: 1_000, then: nil, language: .ko)
                == "1킬로미터 앞에서 왼쪽 차로를 따라 경부고속도로로 진행하세요.")
        #expect(
            Phrasebook.line(.now, Maneuver(id: "m", turn: .keepRight), distance: nil, then: nil, language: .ko)
                == "지금 오른쪽 차로를 유지하세요.")
    }

    @Test func anExitSaysItsNumberBeforeItsName() {
        let exit = Maneuver(
            id: "m", turn: .offRamp, details: ManeuverDetails(toward: "성남", exitNumber: "12", exitName: "판교IC"))
        #expect(
            Phrasebook.line(.near, exit, distance: 500, then: nil, language: .ko)
                == "500미터 앞에서 성남 방면 12번 출구, 판교IC로 나가세요.")
        let named = Maneuver(id: "m", turn: .offRamp, details: ManeuverDetails(exitName: "판교IC"))
        #expect(Phrasebook.line(.now, named, distance: nil, then: nil, language: .ko) == "지금 판교IC로 나가세요.")
        let exitEn = Maneuver(
            id: "m", turn: .offRamp,
            details: ManeuverDetails(toward: "Seongnam", exitNumber: "12", exitName: "Pangyo IC"))
        #expect(
            Phrasebook.line(.now, exitEn, distance: nil, then: nil, language: .en)
                == "Now take exit 12, Pangyo IC, toward Seongnam.")
    }

    @Test func bothLanguagesSayTheSameThing() {
        let through = Maneuver(id: "m", turn: .roundabout)
        #expect(
            Phrasebook.line(.now, through, distance: nil, then: nil, language: .en) == "Now go through the roundabout.")
        #expect(Phrasebook.line(.now, through, distance: nil, then: nil, language: .ko) == "지금 회전교차로를 통과하세요.")
        let ahead = Maneuver(id: "m", turn: .arrive, details: ManeuverDetails(side: .ahead))
        #expect(
            Phrasebook.line(.now, ahead, distance: nil, then: nil, language: .en)
                == "Your destination is straight ahead.")
        #expect(Phrasebook.line(.now, ahead, distance: nil, then: nil, language: .ko) == "목적지가 정면에 있습니다.")
        #expect(Phrasebook.offRoute(.ko) == "경로를 벗어났습니다. 경로를 재탐색합니다.")
        #expect(Phrasebook.recalculated(.en) == "The route has been recalculated.")
        #expect(Phrasebook.recalculated(.ko) == "새로운 경로로 안내합니다.")
        // Back on the route it follows (a detour answered kept), the Korean claims no new route.
        #expect(Phrasebook.backOnRoute(.en) == "The route has been recalculated.")
        #expect(Phrasebook.backOnRoute(.ko) == "경로로 복귀했습니다.")
    }

    @Test func aThenLineCombinesTwoManeuvers() {
        let right = Maneuver(id: "m1", turn: .right)
        let left = Maneuver(id: "m2", turn: .left)
        #expect(
            Phrasebook.line(.now, right, distance: nil, then: left, language: .en) == "Now turn right, then turn left.")
        #expect(Phrasebook.line(.now, right, distance: nil, then: left, language: .ko) == "지금 우회전한 후 좌회전하세요.")
        let arrive = Maneuver(id: "m3", turn: .arrive, details: ManeuverDetails(side: .left))
        #expect(
            Phrasebook.line(.near, right, distance: 150, then: arrive, language: .en)
                == "In 150 meters, turn right, then your destination will be on the left.")
        #expect(
            Phrasebook.line(.near, right, distance: 150, then: arrive, language: .ko)
                == "150미터 앞에서 우회전하면 왼쪽에 목적지가 있습니다.")
    }

    @Test func towardThatOnlyRepeatsTheStreetIsNotSaid() {
        let same = Maneuver(id: "m", turn: .right, street: "A 100", details: ManeuverDetails(toward: "a100"))
        #expect(Phrasebook.line(.now, same, distance: nil, then: nil, language: .en) == "Now turn right onto A 100.")
        #expect(!Phrasebook.line(.now, same, distance: nil, then: nil, language: .ko).contains("방면"))
        let other = Maneuver(id: "m", turn: .right, street: "A 100", details: ManeuverDetails(toward: "Dresden"))
        #expect(
            Phrasebook.line(.now, other, distance: nil, then: nil, language: .en).contains("onto A 100 toward Dresden"))
    }

    @Test func towardIsSaidOnlyForADirectionNeverForTheStreet() {
        let street = Maneuver(id: "m", turn: .left, street: "테헤란로")
        #expect(!Phrasebook.line(.now, street, distance: nil, then: nil, language: .ko).contains("방면"))
        let toward = Maneuver(id: "m", turn: .left, details: ManeuverDetails(toward: "수원"))
        #expect(Phrasebook.line(.now, toward, distance: nil, then: nil, language: .ko) == "지금 수원 방면으로 좌회전하세요.")
        let both = Maneuver(id: "m", turn: .left, street: "테헤란로", details: ManeuverDetails(toward: "수원"))
        #expect(Phrasebook.line(.now, both, distance: nil, then: nil, language: .ko) == "지금 수원 방면 테헤란로로 좌회전하세요.")
    }

    @Test(arguments: [
        ("강남대로", "로"), ("테헤란로", "로"), ("올림픽대로", "로"), ("세종로", "로"), ("영동대교", "로"),
        ("을지로입구역", "으로"), ("한강진", "으로"), ("서울", "로"), ("강변북로", "로"), ("남산1호터널", "로"),
        ("국도 1", "로"), ("국도 3", "으로"), ("국도 6", "으로"), ("국도 7", "로"), ("국도 10", "으로"), ("국도 2", "로"),
        ("IC", "로"), ("판교IC", "로"), ("KTX", "로"), ("Exit M", "으로"), ("Gangnam-daero", "로"), ("Seoul", "로"),
        ("Seoul Station", "으로"), ("Main Street", "로"), ("Gimpo Airport", "로"), ("Jamsil Bridge", "로"),
        ("Daechi-dong", "으로"),
        ("강남대로)", "로"), ("역 ", "으로"), ("...", "로"),
        // A name whose reading is not written in Hangul, kana, digits or Latin letters: " 쪽으로", no choice to say.
        ("仙台塩釜線", " 쪽으로"), ("A1 仙台線", " 쪽으로"), ("Москва", " 쪽으로"), ("東名 3", "으로"),
        // Kana by their reading: ン is ㄴ.
        ("トンネル", "로"), ("センターン", "으로"), ("みなとみらい", "로"),
    ])
    func roOrEuroFollowsTheLastSound(_ name: String, _ particle: String) {
        #expect(Phrasebook.roParticle(after: name) == particle)
    }

    /// The final sound a Korean reader gives a name's last letter or digit
    /// picks 을/를 as it picks 로/으로: ㄹ takes 로 but 을 (Central: 센트럴을,
    /// 센트럴로), a vowel 를 and 로, another consonant 을 and 으로.
    @Test(arguments: [
        ("Central", "을", "로"), ("Seoul", "을", "로"), ("Tunnel", "을", "로"), ("Castle", "을", "로"), ("Jamsil", "을", "로"),
        ("Exit L", "을", "로"), ("Route R", "을", "로"), ("US 1", "을", "로"), ("A 7", "을", "로"), ("E 8", "을", "로"),
        ("Main Street", "를", "로"), ("Gimpo Airport", "를", "로"), ("Olympic Park", "를", "로"), ("IC", "를", "로"),
        ("A 2", "를", "로"), ("I-75", "를", "로"), ("Gangnam-daero", "를", "로"), ("Jamsil Bridge", "를", "로"),
        ("Seoul Station", "을", "으로"), ("Daechi-dong", "을", "으로"), ("Exit M", "을", "으로"), ("A 10", "을", "으로"),
        ("A 3", "을", "으로"), ("Namdaemun Market", "을", "으로"), ("Pyeongtaek", "을", "으로"), ("Daehak", "을", "으로"),
        ("Rock", "을", "으로"),
        // A silent e after n or m, and k after oo, end in a consonant.
        ("Park Lane", "을", "으로"), ("Line", "을", "으로"), ("Stone", "을", "으로"), ("Zone", "을", "으로"),
        ("Dome", "을", "으로"), ("Home", "을", "으로"), ("Anne", "을", "으로"), ("Book", "을", "으로"),
        ("Brook", "을", "으로"), ("Acme", "를", "로"), ("Loop", "를", "로"),
        ("서울", "을", "로"), ("강남대로", "를", "로"), ("한강진", "을", "으로"), ("Central)", "을", "로"),
        ("仙台塩釜線", " 도로를", " 쪽으로"), ("Москва", " 도로를", " 쪽으로"),
    ])
    func objectAndDirectionParticlesFollowTheReadingOfLatinNamesAndNumbers(
        _ name: String, _ object: String, _ direction: String
    ) {
        #expect(Phrasebook.eulReul(after: name) == object, "\(name)")
        #expect(Phrasebook.roParticle(after: name) == direction, "\(name)")
    }

    @Test func aLatinNameEndingInLTakesTheParticlesOfRieulInEveryLine() {
        #expect(Phrasebook.continueLine("5킬로미터", on: "Central", .ko) == "Central을 따라 5킬로미터 직진하세요.")
        let right = Maneuver(id: "m", turn: .right, street: "Central")
        #expect(Phrasebook.line(.now, right, distance: nil, then: nil, language: .ko) == "지금 Central로 우회전하세요.")
        #expect(Phrasebook.continueLine("2킬로미터", on: "Seoul Station", .ko) == "Seoul Station을 따라 2킬로미터 직진하세요.")
        #expect(Phrasebook.continueLine("2킬로미터", on: "Main Street", .ko) == "Main Street를 따라 2킬로미터 직진하세요.")
    }

    @Test func theDepartureLineNamesTheNearestCompassPointAndTheDistanceWhenFar() {
        #expect(Phrasebook.departure(heading: 0, for: nil, .en) == "Head north.")
        #expect(Phrasebook.departure(heading: 359, for: nil, .en) == "Head north.")
        #expect(Phrasebook.departure(heading: 22.4, for: nil, .en) == "Head north.")
        #expect(Phrasebook.departure(heading: 22.5, for: nil, .en) == "Head northeast.")
        #expect(Phrasebook.departure(heading: 92, for: "5 kilometers", .en) == "Head east for 5 kilometers.")
        #expect(Phrasebook.departure(heading: 200, for: "2 miles", .en) == "Head south for 2 miles.")
        #expect(Phrasebook.departure(heading: -45, for: nil, .en) == "Head northwest.")
        #expect(Phrasebook.departure(heading: 270, for: nil, .ko) == "서쪽 방향으로 출발하세요.")
        #expect(Phrasebook.departure(heading: 135, for: "5킬로미터", .ko) == "남동쪽 방향으로 출발해 5킬로미터 직진하세요.")
        for h in stride(from: 0.0, to: 360, by: 7.5) {
            #expect(isEnglishSentence(Phrasebook.departure(heading: h, for: nil, .en)))
            #expect(isPoliteKorean(Phrasebook.departure(heading: h, for: "3킬로미터", .ko)))
        }
    }

    @Test func everyKindStageAndLanguageIsAFullSentence() {
        var count = 0
        for variant in Examples.variants {
            for language in Language.allCases {
                let m = variant.maneuver(language)
                for stage in Stage.allCases {
                    for distance in stage == .now ? [nil] : Examples.distances.map(Optional.some) {
                        for next in [
                            nil, Maneuver(id: "n", turn: .left),
                            Maneuver(id: "n", turn: .roundabout, details: ManeuverDetails(exit: 3)),
                            Maneuver(id: "n", turn: .arrive),
                            Maneuver(id: "n", turn: .arrive, details: ManeuverDetails(side: .ahead)),
                        ]
                        where !m.turn.saidOnReaching || next == nil {
                            let line = Phrasebook.line(stage, m, distance: distance, then: next, language: language)
                            count += 1
                            switch language {
                            case .en:
                                #expect(isEnglishSentence(line), "\(variant.label): \(line)")
                                #expect(
                                    !line.contains(" m ") && !line.contains(" km") && !line.contains(" m,"), "\(line)")
                                #expect(stage == .now ? !line.hasPrefix("In ") : line.hasPrefix("In "), "\(line)")
                            case .ko:
                                #expect(isPoliteKorean(line), "\(variant.label): \(line)")
                                // No Latin at all unless a name given in Latin (none here but 12A, IC).
                                let latin = line.unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic }
                                #expect(
                                    String(String.UnicodeScalarView(latin)).allSatisfy { "ACI".contains($0) }, "\(line)"
                                )
                                #expect(!line.contains("방면") || m.details.toward != nil, "\(line)")
                                #expect(!line.contains("  ") && !line.contains(" ."), "\(line)")
                                // 방향 (the side) never runs into a name: "왼쪽 방향으로" or "왼쪽 방향, 서울역 방면…".
                                #expect(!line.contains("방향 "), "\(line)")
                                // An exit's number comes before its name, never "판교IC 12번 출구".
                                #expect(!line.contains("IC 12번"), "\(line)")
                            }
                            if let next, next.turn == .roundabout {
                                #expect(line.contains(language == .en ? "third exit" : "세 번째 출구"), "\(line)")
                            }
                        }
                    }
                }
            }
        }
        #expect(count > 1_000)
    }

    @Test func everyKoreanStemTakesTheAttributiveEnding() {
        for variant in Examples.variants {
            let (_, stem) = Phrasebook.koreanAction(variant.maneuver(.ko))
            let attributive = Phrasebook.attributive(stem)
            #expect(!attributive.hasSuffix("은"), "\(stem)")
            #expect(attributive.hasSuffix("한") || attributive.hasSuffix("간"), "\(stem) → \(attributive)")
        }
    }

    @Test func continueLinesNameTheRoadAndTheDistanceInBothLanguages() {
        #expect(Phrasebook.continueLine("5 kilometers", on: nil, .en) == "Continue for 5 kilometers.")
        #expect(
            Phrasebook.continueLine("2 miles", on: "Octavia Boulevard", .en)
                == "Continue on Octavia Boulevard for 2 miles.")
        #expect(Phrasebook.continueLine("5킬로미터", on: "강남대로", .ko) == "강남대로를 따라 5킬로미터 직진하세요.")
        #expect(Phrasebook.continueLine("3킬로미터", on: "경부고속도로", .ko) == "경부고속도로를 따라 3킬로미터 직진하세요.")
        #expect(Phrasebook.continueLine("3킬로미터", on: "올림픽대로", .ko) == "올림픽대로를 따라 3킬로미터 직진하세요.")
        #expect(Phrasebook.continueLine("2킬로미터", on: "테헤란로", .ko) == "테헤란로를 따라 2킬로미터 직진하세요.")
        #expect(Phrasebook.continueLine("2킬로미터", on: "한강진", .ko) == "한강진을 따라 2킬로미터 직진하세요.")
        #expect(Phrasebook.continueLine("2킬로미터", on: "서울", .ko) == "서울을 따라 2킬로미터 직진하세요.")
        #expect(Phrasebook.continueLine("2킬로미터", on: nil, .ko) == "2킬로미터 직진하세요.")
        #expect(Phrasebook.continueLine("2킬로미터", on: "仙台塩釜線", .ko) == "仙台塩釜線 도로를 따라 2킬로미터 직진하세요.")
        #expect(Phrasebook.eulReul(after: "Station") == "을" && Phrasebook.eulReul(after: "Street") == "를")
    }

    @Test func aRoundaboutsNameThatSaysSoItselfIsNotCalledARoundaboutAgain() {
        #expect(Phrasebook.koreanRoundabout("광화문 로터리") == "광화문 로터리")
        #expect(Phrasebook.koreanRoundabout("Gwanghwamun Rotary") == "Gwanghwamun Rotary")
        #expect(Phrasebook.koreanRoundabout("Dupont Circle") == "Dupont Circle")
        #expect(Phrasebook.koreanRoundabout("Place de l'Étoile") == "Place de l'Étoile 회전교차로")
        #expect(Phrasebook.koreanRoundabout(nil) == "회전교차로")
    }

    @Test func ordinalsAreWordsForEveryExit() {
        for n in 1...ManeuverDetails.exits {
            #expect(!Phrasebook.koreanOrdinal(n).contains { $0.isNumber })
            #expect(!Phrasebook.englishOrdinal(n).contains { $0.isNumber })
        }
        #expect(Phrasebook.koreanOrdinal(1) == "첫 번째" && Phrasebook.koreanOrdinal(12) == "열두 번째")
        #expect(Phrasebook.englishOrdinal(3) == "third" && Phrasebook.englishOrdinal(12) == "twelfth")
    }

    /// The table in docs/road.md is this one; on a change, run this test
    /// with `PHRASEBOOK_TABLE=<file>` to write the new table there, and
    /// paste it between the markers.
    @Test func theDocsTableListsEveryPhrase() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/road.md"), encoding: .utf8)
        let begin = "<!-- phrasebook table: begin -->\n"
        let end = "<!-- phrasebook table: end -->"
        guard let from = doc.range(of: begin), let to = doc.range(of: end) else {
            Issue.record("docs/road.md has no phrasebook table markers")
            return
        }
        let expected = Self.table()
        if let out = ProcessInfo.processInfo.environment["PHRASEBOOK_TABLE"] {
            try expected.write(toFile: out, atomically: true, encoding: .utf8)
        }
        #expect(String(doc[from.upperBound..<to.lowerBound]) == expected, "the table in docs/road.md is out of date")
    }

    static func table() -> String {
        func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
        var out = "| maneuver | language | far (1.5 km) and near (300 m) | now |\n|---|---|---|---|\n"
        for variant in Examples.variants {
            for language in [Language.en, .ko] {
                let m = variant.maneuver(language)
                let far = Phrasebook.line(.far, m, distance: 1_500, then: nil, language: language)
                let near = Phrasebook.line(.near, m, distance: 300, then: nil, language: language)
                let now = Phrasebook.line(.now, m, distance: nil, then: nil, language: language)
                out += "| \(variant.label) | \(language.rawValue) | \(cell(far))<br>\(cell(near)) | \(cell(now)) |\n"
            }
        }
        out += "\n| announced together | language | near (300 m) | now |\n|---|---|---|---|\n"
        for (label, make) in Examples.pairs {
            for language in [Language.en, .ko] {
                let (m, n) = make(language)
                let near = Phrasebook.line(.near, m, distance: 300, then: n, language: language)
                let now = Phrasebook.line(.now, m, distance: nil, then: n, language: language)
                out += "| \(label) | \(language.rawValue) | \(cell(near)) | \(cell(now)) |\n"
            }
        }
        out += "\n| line | en | ko |\n|---|---|---|\n"
        out += "| off route | \(Phrasebook.offRoute(.en)) | \(Phrasebook.offRoute(.ko)) |\n"
        out +=
            "| recalculated (a reroute's switch) | \(Phrasebook.recalculated(.en)) | \(Phrasebook.recalculated(.ko)) |\n"
        out += "| back on the route | \(Phrasebook.backOnRoute(.en)) | \(Phrasebook.backOnRoute(.ko)) |\n"
        for (label, street) in [
            ("continue (next maneuver 2 km or more ahead)", false),
            ("continue, on the street the maneuver led onto", true),
        ] {
            func line(_ l: Language) -> String {
                Phrasebook.continueLine(SpokenDistance.written(5000, l), on: street ? Examples.street(l) : nil, l)
            }
            out += "| \(label) | \(line(.en)) | \(line(.ko)) |\n"
        }
        out +=
            "| departure, heading 0° | \(Phrasebook.departure(heading: 0, for: nil, .en)) | \(Phrasebook.departure(heading: 0, for: nil, .ko)) |\n"
        func far(_ l: Language) -> String { Phrasebook.departure(heading: 90, for: SpokenDistance.written(5000, l), l) }
        out += "| departure, heading 90°, first maneuver 2 km or more ahead | \(far(.en)) | \(far(.ko)) |\n"
        return out
    }
}
