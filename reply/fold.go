package reply

// Accent folding for Latin letters. Rule: "Normalised label equality —
// case, accents, punctuation and trailing plurals folded."
//
// A small table rather than Unicode decomposition: the letters people type
// in labels and replies are the precomposed ones covered here, and a
// combining mark typed after a Latin letter is dropped by the normaliser,
// which covers decomposed text. Every entry folds to lower-case ASCII, so
// "Développeur", "DEVELOPPEUR" and "developpeur" all read "developpeur".

// latin1 folds U+00C0..U+00FF. '*' marks a letter that folds to two
// (latinPairs); '-' marks the two signs in the block (× and ÷).
const latin1 = "" +
	"aaaaaa*ceeeeiiii" + // À Á Â Ã Ä Å Æ Ç È É Ê Ë Ì Í Î Ï
	"dnooooo-ouuuuy**" + // Ð Ñ Ò Ó Ô Õ Ö × Ø Ù Ú Û Ü Ý Þ ß
	"aaaaaa*ceeeeiiii" + // à á â ã ä å æ ç è é ê ë ì í î ï
	"dnooooo-ouuuuy*y" //   ð ñ ò ó ô õ ö ÷ ø ù ú û ü ý þ ÿ

// latinExtA folds U+0100..U+017F, Latin Extended-A, which is laid out as
// runs of one base letter in upper and lower case.
const latinExtA = "" +
	"aaaaaa" + // Ā ā Ă ă Ą ą
	"cccccccc" + // Ć ć Ĉ ĉ Ċ ċ Č č
	"dddd" + // Ď ď Đ đ
	"eeeeeeeeee" + // Ē ē Ĕ ĕ Ė ė Ę ę Ě ě
	"gggggggg" + // Ĝ ĝ Ğ ğ Ġ ġ Ģ ģ
	"hhhh" + // Ĥ ĥ Ħ ħ
	"iiiiiiiiii" + // Ĩ ĩ Ī ī Ĭ ĭ Į į İ ı
	"**" + // Ĳ ĳ
	"jj" + // Ĵ ĵ
	"kkk" + // Ķ ķ ĸ
	"llllllllll" + // Ĺ ĺ Ļ ļ Ľ ľ Ŀ ŀ Ł ł
	"nnnnnnnnn" + // Ń ń Ņ ņ Ň ň ŉ Ŋ ŋ
	"oooooo" + // Ō ō Ŏ ŏ Ő ő
	"**" + // Œ œ
	"rrrrrr" + // Ŕ ŕ Ŗ ŗ Ř ř
	"ssssssss" + // Ś ś Ŝ ŝ Ş ş Š š
	"tttttt" + // Ţ ţ Ť ť Ŧ ŧ
	"uuuuuuuuuuuu" + // Ũ ũ Ū ū Ŭ ŭ Ů ů Ű ű Ų ų
	"ww" + // Ŵ ŵ
	"yyy" + // Ŷ ŷ Ÿ
	"zzzzzz" + // Ź ź Ż ż Ž ž
	"s" // ſ

// vietnamese folds U+1EA0..U+1EF9, the precomposed vowels with two marks.
const vietnamese = "" +
	"aaaaaaaaaaaaaaaaaaaaaaaa" + // Ạ .. ặ
	"eeeeeeeeeeeeeeee" + // Ẹ .. ệ
	"iiii" + // Ỉ ỉ Ị ị
	"oooooooooooooooooooooooo" + // Ọ .. ợ
	"uuuuuuuuuuuuuu" + // Ụ .. ự
	"yyyyyyyy" // Ỳ .. ỹ

// latinPairs holds the letters that fold to two ASCII letters.
var latinPairs = map[rune]string{
	'Æ': "ae", 'æ': "ae", 'Þ': "th", 'þ': "th", 'ß': "ss", 'ẞ': "ss",
	'Ĳ': "ij", 'ĳ': "ij", 'Œ': "oe", 'œ': "oe",
}

// latinOthers holds the Latin Extended-B letters common in European and
// Vietnamese text.
var latinOthers = map[rune]byte{
	'Ơ': 'o', 'ơ': 'o', 'Ư': 'u', 'ư': 'u', 'Ș': 's', 'ș': 's', 'Ț': 't', 'ț': 't',
	'Ǎ': 'a', 'ǎ': 'a', 'Ǐ': 'i', 'ǐ': 'i', 'Ǒ': 'o', 'ǒ': 'o', 'Ǔ': 'u', 'ǔ': 'u',
}

// foldLatin returns the lower-case ASCII spelling of an accented Latin
// letter, or "" when r is not one.
func foldLatin(r rune) string {
	var c byte
	switch {
	case r >= 0xC0 && r <= 0xFF:
		c = latin1[r-0xC0]
	case r >= 0x100 && r <= 0x17F:
		c = latinExtA[r-0x100]
	case r >= 0x1EA0 && r <= 0x1EF9:
		c = vietnamese[r-0x1EA0]
	case r == 'ẞ':
		c = '*'
	default:
		c = latinOthers[r]
	}
	switch c {
	case 0, '-':
		return ""
	case '*':
		return latinPairs[r]
	}
	return asciiLetters[c-'a' : c-'a'+1]
}

// asciiLetters lets foldLatin return one-letter strings without
// allocating.
const asciiLetters = "abcdefghijklmnopqrstuvwxyz"
