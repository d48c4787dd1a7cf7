import {
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { IconBan, IconCheck, IconMinus } from '@tabler/icons-react';
import {
  type AbilityRule,
  ACTIONS,
  type Action,
  type CellState,
  cellOf,
  holdsRight,
  SUBJECTS,
  type Subject,
  setCell,
} from '@werkwissen/shared';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../auth/auth-context.tsx';

/**
 * Clicking a cell goes round: not granted, allowed, denied ("cannot", which wins over any allowing rule). A right the
 * editor does not hold themselves is not theirs to allow: it goes from not granted straight to denied.
 */
const next = (state: CellState, grantable: boolean): CellState =>
  state === 'none' ? (grantable ? 'can' : 'cannot') : state === 'can' ? 'cannot' : 'none';

const LOOK = {
  none: { icon: IconMinus, color: 'text.disabled' },
  can: { icon: IconCheck, color: 'success.main' },
  cannot: { icon: IconBan, color: 'error.main' },
} as const;

/**
 * The permission matrix of a role: subjects by actions, each cell as the rules write it. A click rewrites that one
 * right (`setCell` in shared), keeping every condition the role has: a company role's rights stay within the holder's
 * company. A right granted only with conditions is marked with an asterisk.
 */
export function PermissionMatrix({
  rules,
  companyRole,
  readOnly,
  onChange,
}: {
  rules: AbilityRule[];
  companyRole: boolean;
  readOnly: boolean;
  onChange(rules: AbilityRule[]): void;
}) {
  const { t } = useTranslation();
  return (
    <TableContainer>
      <Table size="small" aria-label={t('admin.roles.matrix')}>
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col">
              {t('admin.roles.subject')}
            </TableCell>
            {ACTIONS.map((action) => (
              <TableCell key={action} component="th" scope="col" align="center">
                {t(`admin.roles.actions.${action}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {SUBJECTS.map((subject) => (
            <TableRow key={subject} hover>
              <TableCell component="th" scope="row">
                <Typography variant="body2">{t(`admin.roles.subjects.${subject}`)}</Typography>
                <Typography variant="caption" color="text.secondary" dir="ltr">
                  {subject}
                </Typography>
              </TableCell>
              {ACTIONS.map((action) => (
                <MatrixCell
                  key={action}
                  rules={rules}
                  subject={subject}
                  action={action}
                  readOnly={readOnly}
                  onSet={(state) => onChange(setCell(rules, subject, action, state, { companyRole }))}
                />
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function MatrixCell({
  rules,
  subject,
  action,
  readOnly,
  onSet,
}: {
  rules: AbilityRule[];
  subject: Subject;
  action: Action;
  readOnly: boolean;
  onSet(state: CellState): void;
}) {
  const { t } = useTranslation();
  const { ability } = useAuth();
  const cell = cellOf(rules, subject, action);
  const grantable = holdsRight(ability, action, subject);
  const { icon: Icon, color } = LOOK[cell.state];
  const state = t(`admin.roles.states.${cell.state}${cell.conditional ? 'Conditional' : ''}`);
  const tip = grantable || cell.state === 'can' ? state : `${state} · ${t('admin.roles.notYours')}`;
  const label = `${t(`admin.roles.actions.${action}`)} · ${t(`admin.roles.subjects.${subject}`)}: ${state}`;
  return (
    <TableCell align="center" sx={{ px: 0.5 }}>
      <Tooltip title={tip}>
        <span>
          <IconButton
            size="small"
            aria-label={label}
            data-state={cell.state}
            disabled={readOnly}
            onClick={() => onSet(next(cell.state, grantable))}
            sx={{ color, position: 'relative' }}
          >
            <Icon size={18} aria-hidden />
            {cell.conditional && (
              <Typography
                component="span"
                aria-hidden
                sx={{ position: 'absolute', top: 0, insetInlineEnd: 2, fontSize: 12 }}
              >
                *
              </Typography>
            )}
          </IconButton>
        </span>
      </Tooltip>
    </TableCell>
  );
}
