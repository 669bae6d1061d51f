import SysmonKit
import Testing

/// Parsing and showing each reading.
@Suite struct SystemReadingTests {
  @Test func loadAverageIsParsedFromItsFirstThreeFields() {
    let reading = LoadAverage(parsing: "0.52 0.48 0.41 2/611 12345\n")
    #expect(reading == LoadAverage(lastMinute: 0.52, last5Minutes: 0.48, last15Minutes: 0.41))
    #expect(reading?.description == "0.52 0.48 0.41")
  }

  @Test func uptimeIsShownInDaysHoursMinutesAndSeconds() {
    #expect(Uptime(parsing: "350735.47 234388.90\n") == Uptime(seconds: 350_735))
    #expect(Uptime(seconds: 350_735).description == "4d 01:25:35")
    #expect(Uptime(seconds: 59).description == "00:00:59")
  }

  @Test func memoryUsageIsParsedFromTotalAndAvailableMemory() {
    let meminfo = """
      MemTotal:       16318412 kB
      MemFree:         1234567 kB
      MemAvailable:    8159206 kB
      """
    let reading = MemoryUsage(parsing: meminfo)
    #expect(reading == MemoryUsage(totalKiB: 16_318_412, availableKiB: 8_159_206))
    #expect(reading?.description == "7.78 of 15.56 GiB available")
  }

  @Test(arguments: ["", "0.52 0.48", "high medium low"])
  func malformedLoadAverageIsRefused(text: String) {
    #expect(LoadAverage(parsing: text) == nil)
  }

  @Test(arguments: ["", "up", "-5 3"])
  func malformedUptimeIsRefused(text: String) {
    #expect(Uptime(parsing: text) == nil)
  }

  @Test func meminfoWithoutAvailableMemoryIsRefused() {
    #expect(MemoryUsage(parsing: "MemTotal: 16318412 kB\nMemFree: 1234567 kB\n") == nil)
  }
}
