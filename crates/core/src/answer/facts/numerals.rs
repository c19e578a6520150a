//! Chinese numerals as numbers, for the amounts and the periods a text names.

/// The value of a Chinese numeral: "三千五百" 3,500, "十二" 12, "两" 2, "三点五" 3.5, "1.2万"
/// is read by the digit pattern.
pub fn cjk_number(s: &str) -> Option<f64> {
    let (int_part, frac_part) = match s.split_once('点') {
        Some((i, f)) => (i, Some(f)),
        None => (s, None),
    };
    let digit = |c: char| -> Option<u64> {
        Some(match c {
            '零' | '〇' => 0,
            '一' => 1,
            '二' | '两' => 2,
            '三' => 3,
            '四' => 4,
            '五' => 5,
            '六' => 6,
            '七' => 7,
            '八' => 8,
            '九' => 9,
            _ => return None,
        })
    };
    // Digits without place values are read position by position, as years and codes are
    // written: "一九〇〇" 1900, "二〇二五" 2025.
    if int_part.chars().count() >= 2 && int_part.chars().all(|c| digit(c).is_some()) {
        let mut value = 0u64;
        for c in int_part.chars() {
            value = value.checked_mul(10)?.checked_add(digit(c)?)?;
        }
        if frac_part.is_none() {
            return Some(value as f64);
        }
    }
    let mut total: u64 = 0;
    let mut section: u64 = 0;
    let mut current: u64 = 0;
    let mut any = false;
    for c in int_part.chars() {
        if let Some(d) = digit(c) {
            current = d;
            any = true;
            continue;
        }
        let unit = match c {
            '十' => 10,
            '百' => 100,
            '千' => 1000,
            '万' => 10_000,
            '亿' => 100_000_000,
            _ => return None,
        };
        any = true;
        if unit >= 10_000 {
            section += current;
            total += section.max(1) * unit;
            section = 0;
        } else {
            section += current.max(1) * unit;
        }
        current = 0;
    }
    if !any {
        return None;
    }
    let mut value = (total + section + current) as f64;
    if let Some(frac) = frac_part {
        let mut scale = 0.1;
        for c in frac.chars() {
            value += digit(c)? as f64 * scale;
            scale /= 10.0;
        }
    }
    Some(value)
}
