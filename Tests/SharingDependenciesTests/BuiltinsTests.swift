import Foundation
import SharingDependencies
import Testing

@Suite struct BuiltinsTests {
  @Test func constantDateIsReturnedEveryTime() {
    let date = Date(timeIntervalSince1970: 1_234_567_890)
    withDependencies {
      $0.date = .constant(date)
    } operation: {
      @Dependency(\.date) var generator
      @Dependency(\.date.now) var now
      #expect(generator() == date)
      #expect(now == date)
    }
  }

  @Test func incrementingUUIDsCountUp() {
    withDependencies {
      $0.uuid = .incrementing
    } operation: {
      @Dependency(\.uuid) var uuid
      #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000000")
      #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000001")
      #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000002")
    }
  }

  @Test func unimplementedUUIDReportsAnIssue() {
    @Dependency(\.uuid) var uuid
    withKnownIssue {
      _ = uuid()
    } matching: { issue in
      issue.description.contains(#"Unimplemented: '@Dependency(\.uuid)'"#)
    }
  }

  @Test func unimplementedDateReportsAnIssue() {
    @Dependency(\.date) var date
    withKnownIssue {
      _ = date.now
    } matching: { issue in
      issue.description.contains(#"Unimplemented: '@Dependency(\.date)'"#)
    }
  }
}
