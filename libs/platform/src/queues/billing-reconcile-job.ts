/** The billing reconcile: one job per BILLING_RECONCILE_SECONDS across every idle-monitor replica. */
export const BILLING_RECONCILE_QUEUE = 'billing-reconcile';
export const BILLING_RECONCILE_JOB = 'billing-reconcile';
export const BILLING_RECONCILE_SCHEDULER_ID = 'billing-reconcile-every-period';
