package io.libra.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code $ libra ...} examples of a Markdown file and a check of a command's output against
 * the lines the docs show after it. In the docs' output, a line {@code ...} stands for any number
 * of lines and {@code ...} inside a line for any text; runs of spaces match any run of spaces
 * (columns widen with the figures); durations are whatever the run took.
 */
final class DocExamples {
    /** One example: where it is, the arguments after {@code libra}, and the output the docs show. */
    record Example(String where, List<String> args, List<String> shown) {
    }

    private static final String PROMPT = "$ libra ";
    private static final String ANY_LINES = "...";
    /** A plan's "planned in 234.8 ms", compare's plan-time column before the status: timings, not results. */
    private static final Pattern DURATION = Pattern.compile("(?<=planned in )\\d+(\\.\\d+)? m?s|\\b\\d+(\\.\\d+)? m?s(?=\\s+[a-z]+$)");

    private DocExamples() {
    }

    static List<Example> in(Path markdown) throws IOException {
        List<String> lines = Files.readAllLines(markdown);
        List<Example> examples = new ArrayList<>();
        boolean fenced = false;
        Example current = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("```")) {
                fenced = !fenced;
                current = null;
            } else if (fenced && line.startsWith(PROMPT)) {
                current = new Example(markdown.getFileName() + ":" + (i + 1),
                        Arrays.asList(line.substring(PROMPT.length()).trim().split("\\s+")), new ArrayList<>());
                examples.add(current);
            } else if (fenced && current != null) {
                current.shown().add(line);
            }
        }
        return examples;
    }

    /** The options named in each command's synopsis: the first fenced block whose first line is "libra COMMAND ...". */
    static java.util.Map<String, java.util.Set<String>> synopses(Path markdown) throws IOException {
        java.util.Map<String, java.util.Set<String>> synopses = new java.util.LinkedHashMap<>();
        List<String> lines = Files.readAllLines(markdown);
        for (int i = 0; i + 1 < lines.size(); i++) {
            if (!lines.get(i).startsWith("```") || !lines.get(i + 1).startsWith("libra ")) {
                continue;
            }
            java.util.regex.Matcher command = Pattern.compile("libra ((?:[a-z]+ ?)+)").matcher(lines.get(i + 1));
            command.lookingAt();
            java.util.Set<String> options = new java.util.TreeSet<>();
            for (int j = i + 1; j < lines.size() && !lines.get(j).startsWith("```"); j++) {
                java.util.regex.Matcher option = Pattern.compile("--[a-z][a-z-]*").matcher(lines.get(j));
                while (option.find()) {
                    options.add(option.group());
                }
            }
            synopses.putIfAbsent(command.group(1).strip(), options);
        }
        return synopses;
    }

    /** Whether the printed lines are the shown ones, under the rules above. */
    static boolean matches(List<String> shown, List<String> printed) {
        return matches(shown, 0, printed, 0);
    }

    private static boolean matches(List<String> shown, int s, List<String> printed, int p) {
        if (s == shown.size()) {
            return p == printed.size();
        }
        if (shown.get(s).strip().equals(ANY_LINES)) {
            for (int skip = p; skip <= printed.size(); skip++) {
                if (matches(shown, s + 1, printed, skip)) {
                    return true;
                }
            }
            return false;
        }
        return p < printed.size() && line(shown.get(s)).matcher(normal(printed.get(p))).matches()
                && matches(shown, s + 1, printed, p + 1);
    }

    private static Pattern line(String shown) {
        String[] parts = normal(shown).split(Pattern.quote(ANY_LINES), -1);
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            regex.append(i == 0 ? "" : ".*").append(Pattern.quote(parts[i]));
        }
        return Pattern.compile(regex.toString());
    }

    private static String normal(String line) {
        return DURATION.matcher(line.strip()).replaceAll("<duration>").replaceAll(" +", " ");
    }
}
