public import Foundation

extension UUID {
  /// A UUID made from a small integer, for tests that expect known identifiers:
  /// `UUID(0)` is `00000000-0000-0000-0000-000000000000`, `UUID(26)` is
  /// `00000000-0000-0000-0000-00000000001A`.
  ///
  /// ```swift
  /// withDependencies {
  ///   $0.uuid = .incrementing
  /// } operation: {
  ///   let model = TodosModel()
  ///   model.addButtonTapped()
  ///   #expect(model.todos.map(\.id) == [UUID(0)])
  /// }
  /// ```
  ///
  /// These are the UUIDs ``UUIDGenerator/incrementing`` returns, in order.
  ///
  /// - Parameter intValue: The integer, in the last 12 hexadecimal digits: from 0 to
  ///   2⁴⁸ − 1. Another value is a programmer error: it is reported as an issue, and its
  ///   last 48 bits are used.
  public init(_ intValue: Int) {
    if !(0..<(1 << 48)).contains(intValue) {
      reportIssue("UUID(\(intValue)): the integer must be from 0 to 2^48 - 1.")
    }
    let bits = UInt64(truncatingIfNeeded: intValue)
    var bytes = [UInt8](repeating: 0, count: 16)
    for index in 10..<16 {
      bytes[index] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(15 - index)))
    }
    self.init(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      )
    )
  }
}
