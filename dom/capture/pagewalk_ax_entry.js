import { getRole, computeAccessibleName, isDisabled } from 'dom-accessibility-api';
globalThis.__domscopeAX = { getRole, computeAccessibleName, isDisabled };
