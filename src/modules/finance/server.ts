/**
 * The finance domain's public face for other domains' server code (queries, commands, server-side
 * rules): only what they use. Browser code imports index.ts.
 */

export { monthlyFromWeekly } from './finance.calc';
export { financeDisclaimer, formatRepayment, repaymentEstimate } from './finance.display';
