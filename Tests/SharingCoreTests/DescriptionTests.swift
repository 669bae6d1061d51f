import SharingCore
import Testing

@Suite struct DescriptionTests {
  @Test func descriptionsHaveNoModulePrefixes() {
    let store = TestStore<Int>()
    @Shared(.test("count", store: store)) var count = 0
    @SharedReader(.test("count", store: store)) var reader = 0
    #expect($count.description == #"Shared<Int>(.test("count"))"#)
    #expect($reader.description == #"SharedReader<Int>(.test("count"))"#)
    #expect(Shared(value: 0).description == "Shared<Int>(value: 0)")
    #expect(SharedReader(value: "a").description == #"SharedReader<String>(value: "a")"#)
    #expect(Shared<Int?>(value: nil).description == "Shared<Int?>(value: nil)")
    #expect(Shared(value: [Todo]()).description == "Shared<[Todo]>(value: [])")
  }

  @Test func derivedDescriptionsNameTheirPath() throws {
    let stats = Shared(value: Stats())
    let count = stats.count.description
    #expect(count.hasPrefix("Shared<Int>(value: "))
    #expect(count.hasSuffix(#"[dynamicMember: \Stats.count])"#))
    let user = Shared<User?>(value: User(id: 1, name: "Blob"))
    let unwrapped = try #require(Shared(user)).description
    #expect(unwrapped.hasPrefix("Shared<User>(value: Optional("))
    #expect(unwrapped.hasSuffix(")!)"))
  }
}
