import { getRole, computeAccessibleName, isInaccessible, isDisabled } from 'dom-accessibility-api';
globalThis.__daa = { getRole, computeAccessibleName, isInaccessible, isDisabled };
