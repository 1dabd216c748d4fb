/**
 * What an irreversible organiser action will do, in words with the real counts (the API's
 * `phaseImpact`), for the confirmation the organise page shows before it acts.
 */
import { formatDate } from './format';

export interface PhaseImpact {
  submissions: number;
  teams: number;
  scored: number;
  pending: number;
  baselines: number;
  moderated: number;
  teamsWithoutPrimary: number;
  rescorable: number;
  instances: number;
}

/** "1 submission", "12 submissions" */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-GB')} ${n === 1 ? noun : plural}`;
}

export function closeConsequence(phase: { name: string; closesAt: string }, impact: PhaseImpact): string {
  const frozen = impact.teamsWithoutPrimary > 0 ? ` (${counted(impact.teamsWithoutPrimary, 'team')} without one get their latest scored submission).` : '.';
  const parts = [
    `Closing ${phase.name} now ends submissions at once for every team (it was due to close ${formatDate(phase.closesAt)}); it cannot be reopened.`,
    `${counted(impact.submissions, 'submission')} from ${counted(impact.teams, 'team')} stay as they are and each team's primary submission is frozen${frozen}`,
  ];
  if (impact.pending > 0) parts.push(`${counted(impact.pending, 'submission')} still being scored will finish scoring.`);
  return parts.join(' ');
}

export function publishConsequence(phase: { name: string }, impact: PhaseImpact): string {
  const parts = [
    `${counted(impact.submissions, 'submission')} from ${counted(impact.teams, 'team')} will become public, with references${impact.instances > 0 ? ` of all ${counted(impact.instances, 'instance')}` : ''}, every output and every score; the test-set salt is revealed.`,
    `Publishing ${phase.name} is final: the phase takes no more edits or submissions.`,
  ];
  if (impact.pending > 0) parts.push(`${counted(impact.pending, 'submission')} ${impact.pending === 1 ? 'is' : 'are'} still being scored.`);
  return parts.join(' ');
}

export function rescoreConsequence(phase: { name: string }, impact: PhaseImpact): string {
  if (impact.rescorable === 0) return `${phase.name} has no submission to score again.`;
  return `${counted(impact.rescorable, 'submission')} of ${phase.name} will be scored again with the task's current metrics; they leave the board until they are scored, and their current scores move to their score history.`;
}

export function moderationConsequence(sub: { systemName: string; teamName: string }, moderation: 'HIDDEN' | 'DISQUALIFIED', reasonPublic: boolean): string {
  const who = reasonPublic ? 'everyone who sees it' : 'the team and the organisers';
  return moderation === 'DISQUALIFIED'
    ? `${sub.systemName} of ${sub.teamName} will be disqualified: shown on the board but not ranked, and left out of score downloads. ${who[0]?.toUpperCase() ?? ''}${who.slice(1)} will see your reason. You can restore it later.`
    : `${sub.systemName} of ${sub.teamName} will be hidden: off the board, seen only by its team and the organisers. ${who[0]?.toUpperCase() ?? ''}${who.slice(1)} will see your reason. You can restore it later.`;
}
