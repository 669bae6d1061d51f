import Foundation
import PostgresTestSupport
import SharingCore
import Testing

@testable import SharingPostgres

/// A key's changes are notified on the channel of its bucket, which this package computes as
/// the server does.
@Suite struct KeyBucketTests {
  @Test func md5DigestsAreTheRFCs() {
    let vectors = [
      ("", "d41d8cd98f00b204e9800998ecf8427e"),
      ("a", "0cc175b9c0f1b6a831c399e269772661"),
      ("abc", "900150983cd24fb0d6963f7d28e17f72"),
      ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
      ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
      (
        "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
        "57edf4a22be3c955ac49da2e2107b67a"
      ),
    ]
    for (text, digest) in vectors {
      let hex = MD5.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
      #expect(hex == digest, "md5(\(String(reflecting: text)))")
    }
  }

  @Test func bucketOfAKeyIsTheBucketTheServerComputes() async throws {
    let cluster = try await PostgresCluster.shared()
    let lengths = [0, 1, 2, 55, 56, 63, 64, 65, 119, 120, 200, 1_000]
    let keys =
      ["count", "feature-flags", "é", "日本語のキー", "👩‍👩‍👧", "a b", "w-0", "w-15"]
      + lengths.map { String(repeating: "k", count: $0) }
      + (0..<200).map { "key-\($0)-\(UUID().uuidString)" }
    let values = keys.map { "('\($0)')" }.joined(separator: ", ")
    let expression = TableSQL.bucket(of: "key")
    let buckets = try cluster.psql(
      "SELECT \(expression) FROM (VALUES \(values)) AS keys(key)"
    ).split(separator: "\n").map { Int($0) }
    #expect(buckets == keys.map { KeyBuckets.bucket(of: $0) })
    #expect(Set(buckets.compactMap { $0 }).count > 100)
  }

  /// The listening connection is up before the second key is held: it must start listening
  /// to that key's bucket, or the other process's write would notify no one.
  @Test func keyHeldAfterTheListenerConnectedHearsAnotherProcessesWrite() async throws {
    let table = try await TestTable()
    let second = (0...).lazy.map { "second-\($0)" }
      .first { KeyBuckets.bucket(of: $0) != KeyBuckets.bucket(of: "first") }!
    try await table.withDatabase {
      @SharedReader(.postgres("first")) var first = 0
      await eventually("the first key loaded") { !$first.isLoading }
      @SharedReader(.postgres(second)) var value = 0
      await eventually("the second key loaded") { !$value.isLoading }
      let run = await Probe.finish(try Probe.start("set", table, [second, "42"]))
      #expect(run.status == 0, "\(run.errors)")
      await eventually("the other process's value", { "holding \(value)" }) { value == 42 }
    }
  }
}
