// The Java and Kotlin probe of 'make platform' (tools/platformtables compiles it against the jars
// and reads what it prints): runs each Java built-in (and Gson, Jackson and kotlin-stdlib
// function) a port would reach for over every code point (surrogates excluded), or over the
// spellings of inputs.json, and prints a line "row" and the built-in as JSON, then one line a
// code point ("cp", hex, JSON answer), a probe of a splitter ("line", name, JSON lines) or a
// spelling ("map", JSON spelling, JSON answer).
// Usage: java -cp ... Probe inputs.json gson-V.jar jackson-databind-V.jar ...

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

public class Probe {
  static final Gson gson = new Gson();
  static final ObjectMapper jackson = new ObjectMapper();
  static final BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
  static final Map<String, String> splitProbes = new LinkedHashMap<>();
  static String version;
  static String language;
  static final String note = "Unicode " + unicodeVersion();

  static String unicodeVersion() {
    // The Unicode version of java.lang.Character, as its documentation gives it.
    return Runtime.version().feature() == 17 ? "13.0" : "of Java " + Runtime.version().feature();
  }

  static void w(String s) {
    try {
      out.write(s);
    } catch (java.io.IOException e) {
      throw new RuntimeException(e);
    }
  }

  static void row(String key, String name, String kind) {
    JsonObject o = new JsonObject();
    o.addProperty("key", language + ":" + key);
    o.addProperty("language", language);
    o.addProperty("name", name);
    o.addProperty("version", version);
    o.addProperty("how", "measured");
    o.addProperty("kind", kind);
    o.addProperty("note", note);
    w("row\t" + gson.toJson(o) + "\n");
  }

  static void cp(int c, String v) {
    w("cp\t" + Integer.toHexString(c).toUpperCase(Locale.ROOT) + "\t" + gson.toJson(v) + "\n");
  }

  interface Each {
    void at(int c, String s);
  }

  static void each(Each f) {
    for (int c = 0; c <= 0x10FFFF; c++) {
      if (c >= 0xD800 && c <= 0xDFFF) continue;
      f.at(c, new String(Character.toChars(c)));
    }
  }

  static void set(String key, String name, String kind, Predicate<String> is) {
    row(key, name, kind);
    each((c, s) -> { if (is.test(s)) cp(c, ""); });
  }

  static void forms(String key, String name, String kind, int last, Function<String, String> enc) {
    row(key, name, kind);
    each((c, s) -> {
      if (c <= last) {
        String f = enc.apply(s);
        if (!f.equals(s)) cp(c, f);
      }
    });
  }

  static void split(String key, String name, Function<String, List<String>> f) {
    set(key, name, "split", s -> f.apply("a" + s + "b").equals(List.of("a", "b")));
    for (Map.Entry<String, String> e : splitProbes.entrySet()) {
      w("line\t" + e.getKey() + "\t" + gson.toJson(f.apply(e.getValue())) + "\n");
    }
  }

  static boolean ascii(String s) {
    return !s.isEmpty() && s.chars().allMatch(ch -> ch < 0x80);
  }

  static void fold(String key, String name, Function<String, String> match) {
    row(key, name, "fold");
    each((c, s) -> {
      if (c >= 0x80) {
        String m = match.apply(s);
        if (!m.isEmpty()) cp(c, m);
      }
    });
  }

  static Function<String, String> viaCase(Function<String, String> f) {
    return s -> { String m = f.apply(s); return ascii(m) ? m.toLowerCase(Locale.ROOT) : ""; };
  }

  interface Eq {
    boolean eq(String a, String b);
  }

  static Function<String, String> letters(Eq eq) {
    return s -> {
      for (char l = 'a'; l <= 'z'; l++) if (eq.eq(s, String.valueOf(l))) return String.valueOf(l);
      return "";
    };
  }

  static void digit(String key, String name, Predicate<String> is) {
    row(key, name, "digit");
    each((c, s) -> { if (is.test(s)) cp(c, String.valueOf(Character.digit(c, 10))); });
  }

  static void parse(String key, String name, List<String> spellings, Function<String, String> f) {
    row(key, name, "parse");
    for (String s : spellings) {
      String a;
      try {
        a = f.apply(s);
      } catch (NumberFormatException e) {
        a = null;
      }
      w("map\t" + gson.toJson(s) + "\t" + gson.toJson(a == null ? "refused" : a) + "\n");
    }
  }

  static String jar(String[] args, String name, String title) {
    for (String a : Arrays.copyOfRange(args, 1, args.length)) {
      if (a.startsWith(name + "-") && a.endsWith(".jar")) return title + " " + a.substring(name.length() + 1, a.length() - 4);
    }
    throw new IllegalArgumentException("no " + name + " jar among the arguments");
  }

  public static void main(String[] args) throws Exception {
    splitProbes.put("CRLF", "a\r\nb");
    splitProbes.put("final LF", "a\n");
    splitProbes.put("final CRLF", "a\r\n");
    splitProbes.put("final CR", "a\r");
    splitProbes.put("empty", "");
    splitProbes.put("empty line", "a\n\nb");
    List<String> spellings = new ArrayList<>();
    JsonParser.parseString(Files.readString(Path.of(args[0]))).getAsJsonObject().getAsJsonArray("spellings")
        .forEach(e -> spellings.add(e.getAsString()));
    String java = "Java " + Runtime.version();

    language = "java";
    version = java;
    Pattern space = Pattern.compile("\\s"), spaceU = Pattern.compile("\\s", Pattern.UNICODE_CHARACTER_CLASS);
    set("Character.isWhitespace", "Character.isWhitespace(c)", "set", s -> Character.isWhitespace(s.codePointAt(0)));
    set("Character.isSpaceChar", "Character.isSpaceChar(c)", "set", s -> Character.isSpaceChar(s.codePointAt(0)));
    set("Character.isISOControl", "Character.isISOControl(c)", "set", s -> Character.isISOControl(s.codePointAt(0)));
    set("Pattern.\\s", "Pattern.compile(\"\\\\s\")", "set", s -> space.matcher(s).matches());
    set("Pattern.\\s(UNICODE_CHARACTER_CLASS)", "Pattern.compile(\"\\\\s\", Pattern.UNICODE_CHARACTER_CLASS)", "set", s -> spaceU.matcher(s).matches());
    set("String.trim", "s.trim()", "strip", s -> (s + "x" + s).trim().equals("x"));
    set("String.strip", "s.strip()", "strip", s -> (s + "x" + s).strip().equals("x"));
    split("String.lines", "s.lines()", s -> s.lines().toList());
    split("split(\"\\\\R\")", "s.split(\"\\\\R\")", s -> Arrays.asList(s.split("\\R")));
    split("split(\"\\n\")", "s.split(\"\\n\")", s -> Arrays.asList(s.split("\n")));
    Pattern d = Pattern.compile("\\d"), dU = Pattern.compile("\\d", Pattern.UNICODE_CHARACTER_CLASS);
    digit("Character.isDigit", "Character.isDigit(c) and Character.digit(c, 10)", s -> Character.isDigit(s.codePointAt(0)));
    digit("Pattern.\\d", "Pattern.compile(\"\\\\d\")", s -> d.matcher(s).matches());
    digit("Pattern.\\d(UNICODE_CHARACTER_CLASS)", "Pattern.compile(\"\\\\d\", Pattern.UNICODE_CHARACTER_CLASS)", s -> dU.matcher(s).matches());
    parse("Integer.parseInt", "Integer.parseInt(s)", spellings, s -> String.valueOf(Integer.parseInt(s)));
    parse("Long.parseLong", "Long.parseLong(s)", spellings, s -> String.valueOf(Long.parseLong(s)));
    fold("equalsIgnoreCase", "a.equalsIgnoreCase(b)", letters(String::equalsIgnoreCase));
    fold("regionMatches(true)", "a.regionMatches(true, 0, b, 0, n)", letters((a, b) -> a.regionMatches(true, 0, b, 0, b.length())));
    fold("toLowerCase(Locale.ROOT)", "a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT))", viaCase(s -> s.toLowerCase(Locale.ROOT)));
    fold("toUpperCase(Locale.ROOT)", "a.toUpperCase(Locale.ROOT).equals(b.toUpperCase(Locale.ROOT))", viaCase(s -> s.toUpperCase(Locale.ROOT)));
    for (int[] flags : new int[][] {{Pattern.CASE_INSENSITIVE}, {Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE}}) {
      boolean u = flags[0] != Pattern.CASE_INSENSITIVE;
      Pattern any = Pattern.compile("[a-z]", flags[0]);
      Pattern[] one = new Pattern[26];
      for (int i = 0; i < 26; i++) one[i] = Pattern.compile(String.valueOf((char) ('a' + i)), flags[0]);
      fold(u ? "Pattern.CASE_INSENSITIVE|UNICODE_CASE" : "Pattern.CASE_INSENSITIVE",
          u ? "Pattern.compile(x, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE)" : "Pattern.compile(x, Pattern.CASE_INSENSITIVE)",
          s -> {
            if (!any.matcher(s).matches()) return "";
            for (int i = 0; i < 26; i++) if (one[i].matcher(s).matches()) return String.valueOf((char) ('a' + i));
            return "";
          });
    }
    version = jar(args, "gson", "Gson") + " on " + java;
    forms("Gson.toJson", "new Gson().toJson(s)", "escape", 0x10FFFF, s -> { String j = gson.toJson(s); return j.substring(1, j.length() - 1); });
    version = jar(args, "jackson-databind", "Jackson") + " on " + java;
    forms("Jackson.writeValueAsString", "new ObjectMapper().writeValueAsString(s)", "escape", 0x10FFFF, s -> {
      try {
        String j = jackson.writeValueAsString(s);
        return j.substring(1, j.length() - 1);
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    version = java;
    forms("URLEncoder.encode", "URLEncoder.encode(s, StandardCharsets.UTF_8)", "percent", 0x7F, s -> URLEncoder.encode(s, StandardCharsets.UTF_8));

    language = "kotlin";
    version = "kotlin-stdlib " + kotlin.KotlinVersion.CURRENT + " on " + java;
    set("Char.isWhitespace", "c.isWhitespace()", "set", s -> s.length() == 1 && kotlin.text.CharsKt.isWhitespace(s.charAt(0)));
    set("String.trim", "s.trim()", "strip", s -> kotlin.text.StringsKt.trim((CharSequence) (s + "x" + s)).toString().equals("x"));
    split("CharSequence.lines", "s.lines()", s -> kotlin.text.StringsKt.lines(s));
    parse("String.toIntOrNull", "s.toIntOrNull()", spellings, s -> { Integer n = kotlin.text.StringsKt.toIntOrNull(s); return n == null ? null : n.toString(); });
    fold("String.equals(ignoreCase=true)", "a.equals(b, ignoreCase = true)", letters((a, b) -> kotlin.text.StringsKt.equals(a, b, true)));
    out.flush();
  }
}
