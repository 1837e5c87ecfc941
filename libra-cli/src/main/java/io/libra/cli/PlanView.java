package io.libra.cli;

import io.libra.core.format.PlanCodec;
import io.libra.core.estimate.LoadModel;
import io.libra.core.model.Dimension;
import io.libra.core.plan.Action;
import io.libra.core.plan.Balance;
import io.libra.core.plan.MergeAction;
import io.libra.core.plan.MoveTokenAction;
import io.libra.core.plan.MoveAction;
import io.libra.core.plan.NodeDeviation;
import io.libra.core.plan.Plan;
import io.libra.core.plan.Reason;
import io.libra.core.plan.SplitAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Human renderings of plans: balance before and after, actions with their reasons, per-node bars. */
final class PlanView {
    private PlanView() {
    }

    static String balance(Balance before, Balance after) {
        return new Table("", "before", "after")
                .row("cpu Max/Mean", Table.f3(before.cpuMaxOverMean()), Table.f3(after.cpuMaxOverMean()))
                .row("disk Max/Mean", Table.f3(before.diskMaxOverMean()), Table.f3(after.diskMaxOverMean()))
                .row("imbalance degree", Table.f3(before.imbalanceDegree()), Table.f3(after.imbalanceDegree()))
                .render();
    }

    /** One numbered line per action, its reason indented below. */
    static String actions(Plan plan) {
        if (plan.actions().isEmpty()) {
            return "no actions\n";
        }
        StringBuilder sb = new StringBuilder();
        List<Action> actions = plan.actions();
        int width = Integer.toString(actions.size()).length();
        for (int i = 0; i < actions.size(); i++) {
            sb.append(String.format(Locale.ROOT, "%" + width + "d. %s%n", i + 1, describe(actions.get(i))));
            String why = reason(actions.get(i).reason());
            if (!why.isEmpty()) {
                sb.append(" ".repeat(width + 2)).append("why: ").append(why).append('\n');
            }
        }
        return sb.toString();
    }

    static String describe(Action a) {
        if (a instanceof SplitAction s) {
            return String.format(Locale.ROOT, "split %s at %s -> %s, %s (%.0f%% left)", s.region(), s.splitKey(),
                    s.left(), s.right(), s.ratio() * 100);
        }
        if (a instanceof MoveAction m) {
            return "move " + m.region() + " " + m.from() + " -> " + m.to()
                    + (m.sizeBytes() > 0 ? " (" + Table.bytes(m.sizeBytes()) + ")" : "");
        }
        if (a instanceof MoveTokenAction t) {
            return "move token of " + t.node() + " " + t.fromToken() + " -> " + t.toToken();
        }
        MergeAction g = (MergeAction) a;
        return "merge " + String.join("+", g.regions()) + " -> " + g.merged() + " on " + g.node();
    }

    static String reason(Reason r) {
        if (r == null) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        if (r.criticalDimension() != null) {
            parts.add(r.criticalDimension().label() + " critical");
        }
        if (!r.passed().isEmpty()) {
            parts.add("passed " + String.join(", ", r.passed().stream().map(PlanCodec::constraintName).toList()));
        }
        if (r.source() != null) {
            parts.add(deviation(r.source()));
        }
        if (r.destination() != null) {
            parts.add(deviation(r.destination()));
        }
        if (r.note() != null && !r.note().isBlank()) {
            parts.add(r.note());
        }
        return String.join("; ", parts);
    }

    private static String deviation(NodeDeviation d) {
        return String.format(Locale.ROOT, "%s deviation %.3f -> %.3f", d.node(), d.before(), d.after());
    }

    /** Per node and dimension: normalised load before and after as bars (| marks the target). */
    static String bars(LoadModel before, LoadModel after) {
        StringBuilder sb = new StringBuilder();
        for (Dimension d : Dimension.values()) {
            double max = 0;
            for (int j = 0; j < before.nodeCount(); j++) {
                max = Math.max(max, Math.max(before.normalized(j, d), after.normalized(j, d)));
            }
            max = Math.max(max, 1.0);
            Table t = new Table("node", d.label() + " before", "", d.label() + " after", "");
            for (int j = 0; j < before.nodeCount(); j++) {
                t.row(before.nodes().get(j).id(), Table.bar(before.normalized(j, d), max, 1.0, 30),
                        Table.f2(before.normalized(j, d)), Table.bar(after.normalized(j, d), max, 1.0, 30),
                        Table.f2(after.normalized(j, d)));
            }
            sb.append(t.render()).append('\n');
        }
        return sb.toString();
    }
}
