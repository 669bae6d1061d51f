import Foundation
import Testing

/// Random and mutated JSON through the decode path of file storage, with fixed seeds: see
/// the probe's `fuzz-decode` command for the rules checked at each iteration.
///
/// The loop runs in the probe: every undecodable file is reported, and thousands of expected
/// issues would otherwise flood the test log. Only the probe's summary, or the first broken
/// rule, is shown here.
@Suite struct FuzzTests {
  @Test(arguments: [0xF0CC_0001, 0xF0CC_0002] as [UInt64])
  func fuzzedFilesDecodeLikeJSONDecoderOrAreKept(seed: UInt64) async throws {
    try await withTemporaryDirectory { directory in
      let run = try await Probe.run(["fuzz-decode", "\(seed)", "3000", directory.url.path])
      let summary = run.standardError.split(separator: "\n")
        .filter { $0.hasPrefix("fuzz-decode:") || $0.hasPrefix("FUZZ FAILURE") }
        .joined(separator: "\n")
      print(summary)
      #expect(run.status == 0, "\(summary)")
      #expect(summary.hasPrefix("fuzz-decode:"), "\(summary)")
    }
  }
}
