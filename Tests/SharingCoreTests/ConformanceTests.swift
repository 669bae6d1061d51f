import SharingCore
import Testing

@Suite struct ConformanceTests {
  @Test func equalityComparesValues() {
    #expect(Shared(value: 1) == Shared(value: 1))
    #expect(Shared(value: 1) != Shared(value: 2))
    #expect(SharedReader(value: "a") == SharedReader(value: "a"))
  }

  @Test func identityIsTheValuesIdentity() {
    let user = Shared(value: User(id: 7, name: "Blob"))
    #expect(user.id == 7)
    #expect(SharedReader(user).id == 7)
  }

  @Test func mirrorReflectsTheCurrentValue() {
    let stats = Shared(value: Stats(count: 2))
    let mirror = Mirror(reflecting: stats)
    #expect(ObjectIdentifier(mirror.subjectType) == ObjectIdentifier(Stats.self))
    #expect(mirror.children.first { $0.label == "count" }?.value as? Int == 2)
  }

  @Test func neitherHashableNorCodable() {
    #expect(!(Shared<Int>.self is any Hashable.Type))
    #expect(!(Shared<Int>.self is any Encodable.Type))
    #expect(!(Shared<Int>.self is any Decodable.Type))
    #expect(!(SharedReader<Int>.self is any Hashable.Type))
    #expect(!(SharedReader<Int>.self is any Codable.Type))
  }

  @Test func sendableWhenTheValueIs() {
    func requireSendable<T: Sendable>(_: T.Type) -> Bool { true }
    #expect(requireSendable(Shared<Int>.self))
    #expect(requireSendable(SharedReader<[String]>.self))
  }
}
