/// A UTC calendar time from epoch seconds (Howard Hinnant's days-from-civil, inverted), so the generator
/// needs neither Foundation nor the C library's time zone state.
struct CivilTime {
    let year, month, day, hour, minute, second: Int

    init(epochSeconds: Int) {
        let days = epochSeconds / 86_400, rest = epochSeconds % 86_400
        hour = rest / 3600; minute = rest % 3600 / 60; second = rest % 60
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    var iso8601: String {
        "\(year)-\(decimal(month, width: 2))-\(decimal(day, width: 2))T\(decimal(hour, width: 2)):\(decimal(minute, width: 2)):\(decimal(second, width: 2))"
    }
}
