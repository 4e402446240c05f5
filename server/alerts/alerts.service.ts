// What other capabilities may do with alerts: raise one for a user (a domain check that failed, a
// reporter that stopped), and count a user's alerts (the plan's usage). Listing, reading and deleting
// belong to the alerts routes.
export { createAlert as raiseAlert, type NewAlert } from './alerts.repo';
// Ask for the user's alert conditions to be evaluated after data they are computed from changed.
export { queueAlertEvaluation } from './evaluate-alerts.job';
// Keep one alert open for a condition another capability watches (an integration whose syncs keep
// failing), and resolve it when the condition clears.
export {
  openOrUpdateCondition as keepConditionAlert,
  resolveCondition as resolveConditionAlert,
  type ConditionAlert,
} from './alert-conditions';
