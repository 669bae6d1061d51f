import Foundation
import SharingCore
import SharingDependencies
import SharingPostgres
import Testing

extension SharedReaderKey where Self == PostgresKey<Bool>.Default {
  fileprivate static var isBetaEnabled: Self {
    Self[.postgres("is-beta-enabled"), default: false]
  }
}

/// Pins how call sites resolve: which key type each spelling gets.
@Suite struct CompileTimeTests {
  @Test func keyTypes() {
    #expect(type(of: PostgresKey<[String]>.postgres("k")) == PostgresKey<[String]>.self)
    #expect(
      type(of: CoordinatedPostgresKey<Int>.postgres("k", .coordinated))
        == CoordinatedPostgresKey<Int>.self
    )
    let custom: PostgresKey<String> = .postgres(
      "k",
      decode: { String(decoding: $0, as: UTF8.self) },
      encode: { Data($0.utf8) }
    )
    #expect(custom.description == #".postgres("k")"#)
  }

  @Test func sharedValuesOfEveryKind() {
    @Shared(.postgres("count")) var count = 0
    @Shared(.postgres("total", .coordinated)) var total = 0
    @SharedReader(.postgres("count")) var reader = 0
    @Shared(.postgres("name")) var name: String?
    @Shared(.isBetaEnabled) var isBetaEnabled
    $count.withLock { $0 += 1 }
    #expect(reader == 1)
    #expect(total == 0)
    #expect(name == nil)
    #expect(isBetaEnabled == false)
  }

  @Test func requiringAMissingRowThrows() async {
    await #expect(throws: (any Error).self) {
      _ = try await Shared<Int>(require: .postgres("missing"))
    }
  }
}
